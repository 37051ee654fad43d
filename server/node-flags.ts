import v8 from 'node:v8';

/**
 * The Node flags the server's process starts with, wherever it is started: `npm run serve`, the
 * `agency-desk` binary (its shebang), `npm start` (the headless server, or Electron's `--js-flags`) and
 * `npm run bench`. A test keeps the first two, which cannot import this list, the same as it.
 *
 * `--max-semi-space-size=4`: the main thread's young generation at 8 MB instead of V8's 32 MB. Loading
 * the server's modules grows it to its maximum at start, and it stays: some 25 MB of the process's
 * resident memory that an HTTP event loop does not need (its requests' garbage is small; the imports'
 * rows live on the writer and planner threads, sized apart: workerYoungGeneration). Measured 2026-11-25,
 * `npm run bench -- server` in four interleaved runs: the peak through the imports and upserts 258 and
 * 256 MB with it, 265 and 273 MB without (275 to 299 MB in earlier runs); requests per second 0.62x and
 * 0.63x a bare Fastify route with it, 0.52x and 0.59x without; the imports' times within the noise.
 * It has to be given when the process starts: V8 sizes a heap once, and `v8.setFlagsFromString` later
 * does not change it. The packaged desktop app cannot pass it to its main process, and keeps V8's size.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=4'] as const;

/**
 * Lets each thread's resourceLimits size its young generation (store/writer.ts). V8's flags are the
 * process's: the `--max-semi-space-size=4` above holds every isolate made while it is set, and a Worker's
 * resourceLimits then say nothing of its young generation (measured 2026-12-06: an 8 MB new space whatever
 * they asked). Set back to 0 (V8's own choice) once the main isolate exists, which was sized as the process
 * started: the isolates made from then on, the threads, are sized by their resourceLimits.
 */
export function unpinYoungGeneration(): void {
  v8.setFlagsFromString('--max-semi-space-size=0');
}

/**
 * V8's allocation-site pretenuring off, for every isolate of the process from now on. It is a flag V8 reads
 * as it collects: set at run time (as unpinYoungGeneration sets its own), it had the command line's effect
 * in the in-process measurement below; the desktop app's Electron is not run here. V8 watches where objects
 * are made, and once enough of a site's objects survive a scavenge it makes that site's objects in the old
 * generation from then on, where only a full collection frees them. An upsert's planner made each row's
 * keys, stored values and merged values at such sites while the first pieces still held them, and kept
 * making them old for the rest of the import: 190 MB of 100,000 rows' short-lived objects went to the old
 * generation, a full collection every 150 to 250 ms (its heap flat after each one: nothing is kept). With
 * pretenuring off, 25 to 70 MB; the plan alone in 0.86x to 0.89x its time in-process, the upsert over HTTP
 * in 0.94x to 0.96x its wall time (paired runs, 2026-12-06), the import and its peak RSS unchanged.
 */
export function noPretenuring(): void {
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
}
