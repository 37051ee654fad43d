import { describe, expect, it } from 'vitest';
import { errorOf } from '../../renderer/src/api/http.js';
import { ImportJob, type JobPorts } from '../../renderer/src/import/import-job.js';
import type { FromWorker } from '../../renderer/src/import/protocol.js';
import { REAL_WORLD_FILES } from '../helpers/real-world-files.js';
import { appWithAdminPerFile } from '../helpers/users.js';
import { bufferSource } from './csv-files.js';

/**
 * Issue 12: a file dropped on the dashboard (the import worker's job, its automatic mapping, its flagged
 * rows left out) and the same file sent to `POST /api/locations/upload` as `text/csv` by a script store
 * the same locations: one set of rules, in server/imports/, for both.
 */

const { t, admin } = appWithAdminPerFile();

async function throughTheDashboard(clientId: string, name: string, bytes: Uint8Array): Promise<void> {
  const messages: FromWorker[] = [];
  const ports: JobPorts = {
    send: (message) => messages.push(message),
    token: async () => admin(),
    post: async <T>(path: string, body: string, token: string) => {
      const response = await t().request({ method: 'POST', url: path, token, body });
      if (response.statusCode >= 300) throw errorOf(response.statusCode, response.body, null);
      return response.json<T>();
    },
  };
  const job = new ImportJob(ports);
  await job.read({ ...bufferSource(bytes), name });
  await job.check(clientId);
  await job.import(clientId, 'skip');
  const imported = messages.filter((message) => message.type === 'imported').at(-1);
  expect(imported, JSON.stringify(messages.filter((message) => message.type === 'failed'))).toBeDefined();
}

async function throughTheEndpoint(clientId: string, bytes: Uint8Array): Promise<void> {
  const response = await t().app.inject({
    method: 'POST',
    url: `/api/locations/upload?clientId=${clientId}`,
    headers: { host: '127.0.0.1:4870', authorization: `Bearer ${admin()}`, 'content-type': 'text/csv' },
    payload: Buffer.from(bytes),
  });
  expect(response.statusCode, response.body).toBe(201);
}

/** A client's locations without what differs by nature between two imports (ids, times). */
async function stored(clientId: string): Promise<Record<string, unknown>[]> {
  const response = await t().request({ method: 'GET', url: `/api/locations?clientId=${clientId}`, token: admin() });
  expect(response.statusCode).toBe(200);
  return response
    .json<Record<string, unknown>[]>()
    .map(({ id: _id, created_at: _created, updated_at: _updated, ...fields }) => fields);
}

describe('the dashboard and the text/csv endpoint store the same locations', () => {
  it.each(REAL_WORLD_FILES.map((file) => [file.name, file] as const))('%s', async (name, file) => {
    const viaDashboard = await t().createClient(admin(), `Dashboard ${name}`);
    const viaEndpoint = await t().createClient(admin(), `Endpoint ${name}`);
    await throughTheDashboard(viaDashboard, name, file.bytes);
    await throughTheEndpoint(viaEndpoint, file.bytes);
    const fromDashboard = await stored(viaDashboard);
    expect(fromDashboard).toHaveLength(file.locations);
    expect(fromDashboard).toEqual(await stored(viaEndpoint));
  });
});

describe('the dashboard and the text/csv endpoint name the same lines', () => {
  it('a spreadsheet’s rows: a line break inside a quoted address does not move them, an empty line does', async () => {
    const csv = [
      'Name,Address,City,Country,Phone',
      '"Northwind Capitol Hill","1530 Broadway\r\nSuite 200\r\nBuilding B",Seattle,US,(206) 555-0101',
      '',
      'Northwind Alberta,"2200 NE Alberta St\nUnit 4",Portland,US,(503) 555-0102',
      'Northwind Fremont,3500 Fremont Ave N,Seattle,US,not a phone',
    ].join('\r\n');
    const bytes = new TextEncoder().encode(`${csv}\r\n`);
    const clientId = await t().createClient(admin(), 'Lines');
    const endpoint = await t().app.inject({
      method: 'POST',
      url: `/api/locations/upload?clientId=${clientId}&dryRun=true`,
      headers: { host: '127.0.0.1:4870', authorization: `Bearer ${admin()}`, 'content-type': 'text/csv' },
      payload: Buffer.from(bytes),
    });
    expect(endpoint.statusCode, endpoint.body).toBe(200);
    const endpointLines = endpoint.json<{ errors: { line: number }[] }>().errors.map((error) => error.line);

    const messages: FromWorker[] = [];
    const job = new ImportJob({
      send: (message) => messages.push(message),
      token: async () => admin(),
      post: async <T>(path: string, body: string, token: string) =>
        (await t().request({ method: 'POST', url: path, token, body })).json<T>(),
    });
    await job.read({ ...bufferSource(bytes), name: 'lines.csv' });
    await job.check(clientId);
    const report = messages.filter((message) => message.type === 'checked').at(-1);
    const dashboardLines = report?.type === 'checked' ? report.report.problems.map((problem) => problem.line) : [];

    // Excel shows the Fremont row as row 5: header 1, Capitol Hill 2, the empty row 3, Alberta 4.
    expect(endpointLines).toEqual([5]);
    expect(dashboardLines).toEqual([5]);
  });
});
