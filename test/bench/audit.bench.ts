import type { Bench } from './report.js';
import { realisticRows } from './rows.js';
import { collectBenchGarbage, floorImporter } from './server.bench.js';

/**
 * Issue 11: what the audit trail costs an import. An import records one operation and one entry, and
 * puts the operation's id on each location it creates (what its undo reads), not one log write a row.
 * Measured in-process on the minimal floor with the key indexes (server.bench.ts): the same 100,000 rows
 * with and without the trail's writes, runs alternating, medians compared.
 */
const ROWS = 100_000;
const RUNS = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const bench: Bench = async (record) => {
  const body = JSON.stringify({ rows: realisticRows(ROWS) });
  const without = floorImporter(true);
  const withTrail = floorImporter(true, undefined, true);
  const plain: number[] = [];
  const trailed: number[] = [];
  try {
    for (let round = 0; round < RUNS; round++) {
      collectBenchGarbage();
      plain.push(without.run(body));
      collectBenchGarbage();
      trailed.push(withTrail.run(body));
    }
  } finally {
    without.close();
    withTrail.close();
  }
  console.log(
    `  runs (ms): with the trail ${trailed.map(Math.round).join(' ')}; without ${plain.map(Math.round).join(' ')}`,
  );
  const value = median(trailed);
  const floor = median(plain);
  record({
    name: `Import of ${ROWS} rows with the audit trail's writes (operation, entry, created_by), median`,
    value,
    unit: 'ms',
    floor,
    floorLabel: 'the same import without them: the key-indexed floor, in-process, runs alternating',
    target: '<= 1.10x (issue 11: the import figure unchanged within 10%)',
    pass: value <= 1.1 * floor,
  });
};

export default bench;
