import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { mapHeaders } from '../../renderer/src/import/header-mapping.js';
import { junkRows } from '../../renderer/src/import/junk-flags.js';
import { parseCsvText } from '../../renderer/src/import/parse-csv.js';
import { uploadRowOf } from '../../renderer/src/import/upload-rows.js';
import { appWithAdminPerFile } from '../helpers/users.js';
import { rowsOf } from './csv-files.js';

/** The dashboard's "Template CSV": every column maps by itself, and its example row is a complete location. */

const { t, admin } = appWithAdminPerFile();

it('the template maps every column, and the server takes its example as a location of health 100', async () => {
  const table = parseCsvText(
    readFileSync(new URL('../../renderer/public/locations-template.csv', import.meta.url), 'utf8'),
  );
  const mapping = mapHeaders(table.headers);
  expect(mapping).not.toContain(null);
  const rows = rowsOf(table).map((cells) => uploadRowOf(cells, mapping));
  const clientId = await t().createClient(admin(), 'Template');
  const response = await t().request({
    method: 'POST',
    url: '/api/locations/upload?dryRun=true',
    token: admin(),
    body: { clientId, rows },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json()).toMatchObject({
    valid: true,
    rows: [{ action: 'created', health_score: 100, phone: '+12175550142', hours: { sun: [] } }],
  });
});

it('the dashboard flags the example row, so that a template filled in below it does not import the example', () => {
  const template = readFileSync(new URL('../../renderer/public/locations-template.csv', import.meta.url), 'utf8');
  const table = parseCsvText(`${template.trimEnd()}\nBB-1,Bluebird Downtown,1 Main St,Austin,TX,78701,US\n`);
  expect([...junkRows(table, mapHeaders(table.headers))]).toEqual([[0, 'the template’s example row']]);
});
