import http from 'node:http';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyBudget, joinPieces, readBody } from '../../server/http/body.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { expectErrorBody } from '../helpers/assertions.js';

/** How the import's body is read over a real socket: with and without Content-Length. */
describe('POST /api/locations/upload, the body on the wire', () => {
  let t: TestApp;
  let admin: string;
  let clientId: string;
  let port: number;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.addUser('admin@example.com', 'admin');
    admin = await t.login('admin@example.com');
    clientId = await t.createClient(admin);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(() => t.close());

  /** Sends the pieces as a chunked body (no Content-Length); resolves with the status and body. */
  function sendChunked(
    pieces: Iterable<string>,
  ): Promise<{ statusCode: number; headers: http.IncomingHttpHeaders; body: string }> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/locations/upload',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${admin}`,
            'transfer-encoding': 'chunked',
          },
        },
        (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve({ statusCode: response.statusCode!, headers: response.headers, body }));
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        // The server may answer 413 and close before the client has sent everything.
        if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
      });
      Readable.from(pieces).pipe(request);
    });
  }

  it('chunked, without Content-Length, within the limit -> 201', async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ name: `Chunked ${i}` }));
    const response = await sendChunked([`{"clientId":"${clientId}","rows":[`, rows.join(','), ']}']);
    expect(response.statusCode).toBe(201);
    expect(JSON.parse(response.body).count).toBe(2000);
  });

  it('chunked, without Content-Length, past 32 MiB -> 413 JSON, nothing written', async () => {
    const before = (await t.request({ method: 'GET', url: '/api/clients', token: admin })).json<
      { locations_count: number }[]
    >();
    const row = JSON.stringify({ name: 'x'.repeat(190) });
    const pieces = function* () {
      yield `{"clientId":"${clientId}","rows":[${row}`;
      for (let i = 0; i < 180_000; i++) yield `,${row}`;
      yield ']}';
    };
    const response = await sendChunked(pieces());
    expectErrorBody({ statusCode: response.statusCode, headers: response.headers, body: response.body }, 413);
    const after = (await t.request({ method: 'GET', url: '/api/clients', token: admin })).json<
      { locations_count: number }[]
    >();
    expect(after).toEqual(before);
  });

  it('a Content-Length past 32 MiB -> 413 before the body is read', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/locations/upload',
      headers: {
        host: '127.0.0.1',
        'content-type': 'application/json',
        authorization: `Bearer ${admin}`,
        'content-length': String(40 * 1048576),
      },
      payload: '{}',
    });
    expect(response.statusCode).toBe(413);
  });

  it("many small imports in a row (bodies from Node's shared Buffer pool) -> each one written whole", async () => {
    for (let i = 0; i < 30; i++) {
      // Chunked and small: the joined body is a slice of Node's shared pool, which must be copied, not moved.
      const response = await sendChunked([
        JSON.stringify({ clientId, rows: [{ name: `Small ${i}`, city: 'Springfield' }] }),
      ]);
      expect(response.statusCode).toBe(201);
      expect(JSON.parse(response.body).locations[0].name).toBe(`Small ${i}`);
    }
  });
});

/** readBody keeps the chunks as they came (no copy on the event loop); the writer thread joins them. */
describe('readBody: the pieces of a body', () => {
  const MiB = 1024 * 1024;

  async function piecesOf(chunks: Buffer[], declared?: number, budget = new BodyBudget(64 * MiB)) {
    const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    return readBody(Readable.from(chunks, { objectMode: false }), 32 * MiB, declared ?? length, budget);
  }

  it('keeps a chunk with a buffer of its own, copies a pooled one, gathers small ones; the join is the body', async () => {
    const own = Buffer.allocUnsafeSlow(64 * 1024).fill('a');
    const shared = Buffer.alloc(256 * 1024, 'b');
    const pooled = shared.subarray(1024, 1024 + 20 * 1024);
    const small = Array.from({ length: 300 }, (_, i) => Buffer.from(`{"row":${i}}`));
    const chunks = [own, pooled, ...small, Buffer.allocUnsafeSlow(32 * 1024).fill('c')];
    const expected = Buffer.concat(chunks);
    const body = await piecesOf(chunks);
    expect(body.byteLength).toBe(expected.length);
    expect(Buffer.from(joinPieces(body.pieces)).equals(expected)).toBe(true);
    expect(body.pieces[0]).toBe(own);
    expect(body.pieces[1]).not.toBe(pooled);
    // The 300 small chunks are one piece; no two pieces share an ArrayBuffer, so all can be moved.
    expect(body.pieces).toHaveLength(4);
    const buffers = body.pieces.map((piece) => piece.buffer);
    expect(new Set(buffers).size).toBe(buffers.length);
    const moved = structuredClone(body.pieces, { transfer: buffers as ArrayBuffer[] });
    expect(Buffer.from(joinPieces(moved)).equals(expected)).toBe(true);
    // The pool the copied chunk came from is untouched; the chunk that had its own buffer has moved.
    expect(own.byteLength).toBe(0);
    expect(shared.subarray(1024, 1034).toString()).toBe('b'.repeat(10));
  });

  it('a body trickled a byte at a time is a few gathered pieces, not one a byte', async () => {
    const chunks = Array.from({ length: 600_000 }, (_, i) => Buffer.from([48 + (i % 10)]));
    const body = await piecesOf(chunks);
    expect(body.pieces).toHaveLength(Math.ceil(600_000 / (256 * 1024)));
    expect(Buffer.from(joinPieces(body.pieces)).equals(Buffer.concat(chunks))).toBe(true);
  });

  it('a body shorter or longer than its Content-Length is refused, and its bytes go back to the budget', async () => {
    const budget = new BodyBudget(64 * MiB);
    await expect(piecesOf([Buffer.alloc(100)], 200, budget)).rejects.toMatchObject({ statusCode: 400 });
    await expect(piecesOf([Buffer.alloc(100), Buffer.alloc(100)], 150, budget)).rejects.toMatchObject({
      statusCode: 400,
    });
    expect(budget.inUse).toBe(0);
  });
});
