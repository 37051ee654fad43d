import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import Papa from 'papaparse';
import type { Bench } from './report.js';
import { realisticRows } from './rows.js';
import {
  afterFloor,
  collectBenchGarbage,
  createClient,
  floorImporter,
  login,
  serve,
  timedUpload,
  tmp,
  readyForUpload,
} from './server.bench.js';

/**
 * Issue 12: a 100,000-row CSV through POST /api/locations/upload (Content-Type: text/csv) beside its
 * floor: papaparse's parse of the same text plus the JSON import's floor (server.bench.ts: one prepared
 * INSERT a row in one transaction, only client_id indexed, in-process). Runs alternate.
 */
const ROWS = 100_000;
const RUNS = 3;
const HEADERS = [
  'Business name',
  'Address line 1',
  'Locality',
  'Administrative area',
  'Postal code',
  'Country / Region',
];
const FIELDS = ['name', 'address', 'city', 'state', 'zip', 'country', 'google_place_id'] as const;

function csvOf(rows: Record<string, string>[]): string {
  const header = [...HEADERS, 'Place ID'].join(',');
  const lines = rows.map((row) => FIELDS.map((field) => `"${row[field] ?? ''}"`).join(','));
  return `${header}\n${lines.join('\n')}\n`;
}

/** The floor's parse: papaparse, each row to the floor's field names by position. */
function papaRows(text: string): Record<string, string>[] {
  const { data } = Papa.parse<string[]>(text, { skipEmptyLines: true });
  return data.slice(1).map((cells) => Object.fromEntries(FIELDS.map((field, i) => [field, cells[i] ?? ''])));
}

const bench: Bench = async (record) => {
  const key = randomBytes(32).toString('hex');
  const dataDir = tmp();
  const served = await serve(dataDir, key);
  const token = await login(served.url);
  const csv = csvOf(realisticRows(ROWS));
  const bytes = Buffer.from(csv);
  const floor = floorImporter(false, papaRows);
  const times: number[] = [];
  const floorTimes: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      collectBenchGarbage();
      floorTimes.push(floor.run(csv));
      await afterFloor();
      const clientId = await createClient(served.url, token, `CSV bench ${run}`);
      await readyForUpload(served.url);
      const upload = await timedUpload<{ count: number }>(
        `${served.url}/api/locations/upload?clientId=${clientId}`,
        token,
        'text/csv',
        bytes,
      );
      times.push(upload.ms);
      if (upload.status !== 201 || upload.answer.count !== ROWS)
        throw new Error(`CSV import: ${upload.status} ${JSON.stringify(upload.answer).slice(0, 300)}`);
    }
  } finally {
    await served.stop();
    floor.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const time = Math.min(...times);
  const floorTime = Math.min(...floorTimes);
  console.log(
    `  runs (ms): CSV over HTTP ${times.map(Math.round).join(' ')}; floor ${floorTimes.map(Math.round).join(' ')}`,
  );
  record({
    name: `Import ${ROWS} rows (${(Buffer.byteLength(csv) / 1048576).toFixed(1)} MiB CSV) over HTTP as text/csv`,
    value: time,
    unit: 'ms',
    floor: floorTime,
    floorLabel: 'papaparse + the JSON import floor (one-transaction prepared insert, client_id indexed), in-process',
    target: '<= 1.5x floor',
    pass: time <= 1.5 * floorTime,
  });
};

export default bench;
