import http from 'node:http';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
