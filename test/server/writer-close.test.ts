import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../server/db/store.js';
import { databaseFileIn } from '../../server/start.js';
import type { Principal } from '../../server/http/guards.js';
import { Writer } from '../../server/store/writer.js';
import { processAllocator } from '../../server/memory.js';
import { randomKey, tempDir } from '../helpers/app.js';

/**
 * The server's close waits for its writer thread to exit (issue 13: test/main/desktop.test.ts's afterEach
 * timed out now and then, when the server closed while its threads were starting and a channel between
 * them arrived after 'close'). The writer is one thread now, answering one request at a time; these
 * tests hold that closing it always ends it, whenever the close comes.
 */

const dir = tempDir();
const key = randomKey();
const file = databaseFileIn(dir);
openStore(file, key).close();
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('closing the writer thread', () => {
  it('a server closed while its thread is still starting stops it, every time', async () => {
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

  it('after an outsized import the thread stays for the next write, goes once idle, its freed memory is given back, and the next one starts by itself a moment later', async () => {
    const store = openStore(file, key);
    // The process's allocator, its calls counted: the thread's arenas are trimmed once it has stopped.
    const real = processAllocator();
    let released = 0;
    const allocator = { ...real, releaseSoon: () => (released++, real.releaseSoon()) };
    const idleMs = 300;
    const writer = new Writer(store, Fastify({ logger: false }).log, allocator, { retireIdleMs: idleMs });
    try {
      // Over 8 MiB, and not JSON: refused on the writer thread, before anything is read of the caller.
      const body = new TextEncoder().encode(`{${' '.repeat(9 * 1048576)}`);
      const principal = { organizationId: 'none' } as Principal;
      // In two pieces, as a socket brings a body: together over the limit, each under it.
      const pieces = [body.slice(0, 5 * 1048576), body.slice(5 * 1048576)];
      const request = { organizationId: 'none', principal, body: pieces, dryRun: false, now: Date.now() } as const;
      const reply = await writer.importLocations({ ...request, duplicates: 'skip', mode: 'create', blanks: 'keep' });
      expect(reply).toMatchObject({ statusCode: 400 });
      // A write soon after finds the thread warm, and puts its going off.
      await sleep(idleMs / 2);
      expect(writer.threadStarted).toBe(true);
      await expect(writer.write('checkpoint', {})).resolves.toBeNull();
      await sleep(idleMs / 2);
      expect(writer.threadStarted).toBe(true);
      expect(released).toBe(0);
      // Once idle, it goes, and its arenas are trimmed after it has stopped.
      for (let waited = 0; writer.threadStarted && waited < 100; waited++) await sleep(20);
      expect(writer.threadStarted).toBe(false);
      for (let waited = 0; released === 0 && waited < 50; waited++) await sleep(20);
      expect(released).toBe(1);
      for (let waited = 0; !writer.threadStarted && waited < 150; waited++) await sleep(100);
      expect(writer.threadStarted).toBe(true);
    } finally {
      await writer.close();
      store.close();
    }
  });

  it('waits for a write under way, answers it, then stops', async () => {
    const store = openStore(file, key);
    try {
      const writer = new Writer(store, Fastify({ logger: false }).log);
      const checkpoint = writer.write('checkpoint', {});
      await writer.close();
      await expect(checkpoint).resolves.toBeNull();
    } finally {
      store.close();
    }
  });
});
