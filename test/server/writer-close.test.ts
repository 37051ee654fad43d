import fs from 'node:fs';
import { MessageChannel, Worker } from 'node:worker_threads';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../server/db/store.js';
import { Writer } from '../../server/db/writer.js';
import { databaseFileIn } from '../../server/start.js';
import { randomKey, tempDir } from '../helpers/app.js';

/**
 * The server's close waits for its writer thread to exit (issue 13: test/main/desktop.test.ts's afterEach
 * timed out now and then). Node still delivers a message queued behind the 'close' a thread acts on, so a
 * channel to the parser that arrived just after it kept the writer listening, and alive, for ever.
 */

const dir = tempDir();
const key = randomKey();
const file = databaseFileIn(dir);
openStore(file, key).close();
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The writer thread from its sources, as server/db/writer.ts starts it under tsx. */
function writerThread(): Worker {
  const url = new URL('../../server/db/writer-worker.ts', import.meta.url);
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData: { file, key, nativeBinding: undefined } });
}

const exitOf = (worker: Worker) => new Promise<number>((resolve) => worker.once('exit', resolve));

describe('closing the writer thread', () => {
  it("exits when a channel reaches it after 'close' (both queued before it loaded)", async () => {
    const worker = writerThread();
    const exited = exitOf(worker);
    const { port1, port2 } = new MessageChannel();
    worker.postMessage('close');
    worker.postMessage({ kind: 'connect', port: port1 }, [port1]);
    // The parser's end of the channel, listening as the parser thread would.
    port2.on('message', () => undefined);
    const closed = new Promise<void>((resolve) => port2.once('close', () => resolve()));
    expect(await exited).toBe(0);
    // The thread closed the late channel instead of listening on it.
    await closed;
  });

  it('a server closed while its threads are still starting stops them, every time', async () => {
    const store = openStore(file, key);
    try {
      for (let round = 0; round < 5; round += 1) {
        const writer = new Writer(store, Fastify({ logger: false }).log);
        writer.warmUp();
        await writer.close();
      }
    } finally {
      store.close();
    }
  });
});
