import { describe, expect, it } from 'vitest';
import { locationsPath } from '../../renderer/src/api/locations-path.js';
import type { LocationRow } from '../../renderer/src/api/types.js';
import { appWithAdminPerFile } from '../helpers/users.js';

/** The dashboard's paths of `GET /api/locations` (its first page, the worker's pages, the export's place ids), asked of the real server. */

const { t, admin } = appWithAdminPerFile();

async function clientWithLocations(names: string[]): Promise<string> {
  const clientId = await t().createClient(admin(), 'Path Coffee');
  const rows = names.map((name, at) => ({ name, address: `${at + 1} Main St`, google_place_id: `ChIJ${name}` }));
  const answer = await t().request({
    method: 'POST',
    url: '/api/locations/upload',
    token: admin(),
    body: { clientId, rows },
  });
  expect(answer.statusCode, answer.body).toBe(201);
  return clientId;
}

async function list(path: string): Promise<{ rows: LocationRow[]; total: string | undefined }> {
  const answer = await t().request({ method: 'GET', url: path, token: admin() });
  expect(answer.statusCode, answer.body).toBe(200);
  return { rows: answer.json<LocationRow[]>(), total: answer.headers['x-total-count'] as string | undefined };
}

describe('locationsPath', () => {
  it('asks for a page: limit rows from offset, and the whole count', async () => {
    const clientId = await clientWithLocations(['A', 'B', 'C', 'D', 'E']);
    const all = await list(locationsPath({ clientId }));
    const page = await list(locationsPath({ clientId, limit: 2, offset: 3 }));
    expect(all.rows).toHaveLength(5);
    expect(page.rows.map((row) => row.id)).toEqual(all.rows.slice(3, 5).map((row) => row.id));
    expect(page.total).toBe('5');
    expect(page.rows[0]).not.toHaveProperty('google_place_id');
  });

  it('asks for the place ids only when told to', async () => {
    const clientId = await clientWithLocations(['F', 'G']);
    const { rows } = await list(locationsPath({ clientId, include: 'google_place_id' }));
    expect(rows.map((row) => row.google_place_id).sort()).toEqual(['ChIJF', 'ChIJG']);
  });

  it('keeps a page at offset 0 and the parameters in one order', () => {
    expect(locationsPath({ clientId: 'c', limit: 100, offset: 0 })).toBe(
      '/api/locations?clientId=c&limit=100&offset=0',
    );
  });
});
