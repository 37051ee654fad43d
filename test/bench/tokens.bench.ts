import fs from 'node:fs';
import autocannon from 'autocannon';
import { tempDir } from '../helpers/app.js';
import { randomHexKey, startServerProcess } from '../helpers/server-process.js';
import type { Bench, Record } from './report.js';

const ADMIN = { email: 'bench-tokens@example.com', password: 'bench-password-1' };

async function requestsPerSecond(url: string, bearer: string, seconds: number): Promise<number> {
  const result = await autocannon({
    url,
    headers: { authorization: `Bearer ${bearer}` },
    connections: 10,
    duration: seconds,
    pipelining: 1,
  });
  return result.requests.average;
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * Issue 10: GET /api/clients with an API token against the same with a session's access token, on the
 * same running server (`url`), one right after the other; the access token's figure is the floor. Makes
 * its own read token with `accessToken`. Records one figure and returns both rates.
 */
export async function measureTokenRequests(
  record: Record,
  served: { url: string; accessToken: string },
): Promise<{ apiToken: number; accessToken: number }> {
  const made = await fetch(`${served.url}/api/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${served.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', scopes: ['read'] }),
  });
  if (made.status !== 201) throw new Error(`POST /api/tokens: ${made.status} ${await made.text()}`);
  const { token } = (await made.json()) as { token: string };
  const clients = `${served.url}/api/clients`;
  // A warm-up, then the two in turn: neither gets the JIT's or the cache's first seconds alone.
  await requestsPerSecond(clients, served.accessToken, 2);
  const rates = { access: [] as number[], api: [] as number[] };
  for (let round = 0; round < 2; round++) {
    rates.access.push(await requestsPerSecond(clients, served.accessToken, 3));
    rates.api.push(await requestsPerSecond(clients, token, 3));
  }
  const [accessToken, apiToken] = [mean(rates.access), mean(rates.api)];
  record({
    name: 'GET /api/clients with an API token',
    value: apiToken,
    unit: 'req/s',
    floor: accessToken,
    floorLabel: "the same with a session's access token; the floor is the one to match",
    // "At least as fast": within the 5 % that two back-to-back runs differ by on this machine.
    target: '>= 0.95x',
    pass: apiToken >= 0.95 * accessToken,
  });
  return { apiToken, accessToken };
}

/** Alone (`node --import tsx test/bench/run.ts tokens`): its own server over a fresh data directory. */
const bench: Bench = async (record) => {
  const dataDir = tempDir('agency-desk-bench-tokens-');
  const server = await startServerProcess({
    dataDir,
    key: randomHexKey(),
    env: {
      AGENCY_DESK_ADMIN_EMAIL: ADMIN.email,
      AGENCY_DESK_ADMIN_PASSWORD: ADMIN.password,
      AGENCY_DESK_LOG_LEVEL: 'silent',
    },
  });
  try {
    const signedIn = await fetch(`${server.url}/auth/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const { access_token: accessToken } = (await signedIn.json()) as { access_token: string };
    await measureTokenRequests(record, { url: server.url, accessToken });
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

export default bench;
