import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Bench, Figure } from './report.js';

/**
 * `npm run bench`: runs every test/bench/*.bench.ts (or those named on the command line) and prints
 * each figure beside its floor, measured in the same run on this machine.
 */
const dir = import.meta.dirname;
const only = process.argv.slice(2);
const files = fs
  .readdirSync(dir)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => only.length === 0 || only.some((name) => file.includes(name)))
  .sort();

const figures: Figure[] = [];
const format = (value: number) => (Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(2));

for (const file of files) {
  // The machine's load beside each bench's figures: wall-clock ratios on a shared machine move with it.
  const load = () =>
    os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ');
  console.log(`\n== ${file} (load average ${load()})`);
  const bench = (await import(pathToFileURL(path.join(dir, file)).href)).default as Bench;
  await bench((figure) => {
    figures.push(figure);
    const floor =
      figure.floor === undefined ? '' : `  floor ${format(figure.floor)} ${figure.unit} (${figure.floorLabel ?? ''})`;
    const ratio = figure.floor ? `  = ${(figure.value / figure.floor).toFixed(2)}x floor` : '';
    const verdict = figure.pass === undefined ? '' : figure.pass ? '  PASS' : '  FAIL';
    console.log(
      `  ${figure.name}: ${format(figure.value)} ${figure.unit}${ratio}${floor}${figure.target ? `  [target ${figure.target}]` : ''}${verdict}`,
    );
  });
  console.log(`  (load average at the end: ${load()})`);
}

const failed = figures.filter((figure) => figure.pass === false);
console.log(
  `\n${figures.length} figures, ${figures.filter((f) => f.pass === true).length} targets met, ${failed.length} missed`,
);
for (const figure of failed) console.log(`  missed: ${figure.name}`);
