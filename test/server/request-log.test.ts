import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { logLines } from '../helpers/log-lines.js';
import { buildSignedInApp } from '../helpers/users.js';

/**
 * The server's log at `info`: one JSON line a request once it is answered (method, address, status,
 * time), never the caller's token. Fastify's own two lines a request were a quarter of the server's CPU
 * under a stream of small GETs, its log on standard error being written synchronously.
 */
describe('the request log', () => {
  let t: TestApp;
  let admin: string;
  const { stream, lines: logged, raw, clear } = logLines();
  beforeAll(async () => {
    ({
      t,
      tokens: { admin },
    } = await buildSignedInApp({ admin: 'admin' }, { logger: { level: 'info', stream } }));
  });
  afterAll(() => t.close());

  it('says each request once, when answered, with its method, address, status and time', async () => {
    clear();
    expect((await t.request({ method: 'GET', url: '/api/clients', token: admin })).statusCode).toBe(200);
    // A refused request too: its 400 is the caller's, said at info like any answer.
    const refused = await t.request({ method: 'GET', url: '/api/locations/nothing-here', token: admin });
    expect(refused.statusCode).toBe(400);
    const requests = logged.filter((line) => line.msg !== undefined && line.req !== undefined);
    expect(requests).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'request completed',
        req: expect.objectContaining({ method: 'GET', url: '/api/clients' }),
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      }),
      expect.objectContaining({
        msg: 'request completed',
        req: expect.objectContaining({ method: 'GET', url: '/api/locations/nothing-here' }),
        level: 30,
        res: { statusCode: 400 },
      }),
    ]);
    expect(logged.map((line) => line.msg)).not.toContain('incoming request');
    expect(raw.join('\n')).not.toContain(admin);
  });
});
