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
