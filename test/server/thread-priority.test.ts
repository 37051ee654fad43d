import fs from 'node:fs';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../server/db/store.js';
import { databaseFileIn } from '../../server/start.js';
import { Writer } from '../../server/store/writer.js';
import {
  BACKGROUND_NICE,
  loadThreadPriorityCalls,
  runInBackground,
  type ThreadPriorityCalls,
} from '../../server/thread-priority.js';
import { randomKey, tempDir } from '../helpers/app.js';

/** Whether this process runs on glibc, as Node's diagnostic report says. */
const glibc = (process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header.glibcVersionRuntime;
const linuxGlibc = process.platform === 'linux' && glibc !== undefined;

/** A thread's nice value, from the kernel: the 19th field of its stat line (the 17th after the name). */
function niceOf(statPath: string): number {
  const stat = fs.readFileSync(statPath, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

/** The nice values of this process's threads. */
function threadNices(): number[] {
  return fs.readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      return [niceOf(`/proc/self/task/${tid}/stat`)];
    } catch {
      // A thread that ended between the listing and the read.
      return [];
    }
  });
}

describe('the import threads run below the event loop (server/thread-priority.ts)', () => {
  const dir = tempDir();
  const key = randomKey();
  const file = databaseFileIn(dir);
  openStore(file, key).close();
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('the writer and the planner threads take the background nice value; this thread keeps its own', async () => {
    // Elsewhere (macOS, Windows, musl) the threads keep the priority they start with, and nothing is asked.
    if (!linuxGlibc) return expect(runInBackground()).toBe(false);
    const before = threadNices().filter((nice) => nice === BACKGROUND_NICE).length;
    const store = openStore(file, key);
    const writer = new Writer(store, Fastify({ logger: false }).log);
    try {
      writer.warmUp();
      // The threads are up once a write has its answer: the writer answers it, the planner says it is ready.
      await writer.write('checkpoint', {});
      let backgrounded = 0;
      for (let tries = 0; tries < 100 && backgrounded < before + 2; tries++) {
        backgrounded = threadNices().filter((nice) => nice === BACKGROUND_NICE).length;
        if (backgrounded < before + 2) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(backgrounded).toBe(before + 2);
      expect(niceOf('/proc/thread-self/stat')).toBe(0);
    } finally {
      await writer.close();
      store.close();
    }
  });

  it('asks the kernel for the calling thread only, and says whether it could', () => {
    const calls: unknown[][] = [];
    const fake = (result: number): ThreadPriorityCalls => ({
      gettid: () => 4242,
      setpriority: (...args) => (calls.push(args), result),
    });
    expect(runInBackground(fake(0))).toBe(true);
    expect(calls).toEqual([[0, 4242, BACKGROUND_NICE]]);
    expect(runInBackground(fake(-1))).toBe(false);
    expect(runInBackground(null)).toBe(false);
  });

  it('finds glibc’s calls on Linux with glibc, and none elsewhere', () => {
    expect(loadThreadPriorityCalls() !== null).toBe(linuxGlibc);
  });
});
