import fs from 'node:fs';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../server/db/store.js';
import { databaseFileIn } from '../../server/start.js';
import { Writer } from '../../server/store/writer.js';
import { BACKGROUND_NICE, runInBackground } from '../../server/thread-priority.js';
import { randomKey, tempDir } from '../helpers/app.js';

const linux = process.platform === 'linux';

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
    // Elsewhere (macOS, Windows) the threads keep the priority they start with, and nothing is asked.
    if (!linux) return expect(runInBackground()).toBe(false);
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

  it('asks for the background nice value on Linux only, and says whether it could', () => {
    const asked: number[] = [];
    const setPriority = (priority: number) => void asked.push(priority);
    expect(runInBackground(setPriority, 'linux')).toBe(true);
    expect(asked).toEqual([BACKGROUND_NICE]);
    // Anywhere else the call would lower the whole process, the event loop with it.
    expect(runInBackground(setPriority, 'darwin')).toBe(false);
    expect(runInBackground(setPriority, 'win32')).toBe(false);
    expect(asked).toEqual([BACKGROUND_NICE]);
    const refused = () => {
      throw new Error('EACCES');
    };
    expect(runInBackground(refused, 'linux')).toBe(false);
  });
});
