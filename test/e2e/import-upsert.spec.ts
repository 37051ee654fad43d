import { readFileSync, writeFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { importAs, importer, importFixture } from './columns.js';
import { ADMIN } from './server.js';
import { dropFile, signIn, snap } from './dashboard.js';

/**
 * Issue 9 §3-4 in the browser: a GBP bulk sheet with store codes, phones and per-day hours is imported,
 * then an edited copy (one phone changed, one new row) is re-imported as "update matching locations
 * and add the rest": the preview shows the one update with its diff, the one new location, the rest
 * unchanged, and the import does exactly that.
 */

const { server, admin, openImport } = importFixture();

interface Listed {
  store_code: string | null;
  phone: string | null;
  website: string | null;
  labels: string[] | null;
  hours: Record<string, string[][]> | null;
}

const listed = (clientId: string) =>
  server().api<Listed[]>('GET', `/api/locations?clientId=${clientId}`, { token: admin() });

/** A client holding one location (made through the API), its import dialog open on gbp-hours.csv, checked. */
async function checkOnto(page: Page, clientName: string, row: Record<string, string>) {
  const { id: clientId } = await server().api<{ id: string }>('POST', '/api/clients', {
    token: admin(),
    body: { name: clientName },
  });
  await server().api('POST', '/api/locations/upload', { token: admin(), body: { clientId, rows: [row] } });
  await signIn(page, server().url, ADMIN.email, ADMIN.password);
  await page.goto(`${server().url}/clients/${clientId}`);
  await page.getByRole('button', { name: 'Import locations' }).click();
  const dialog = importer(page);
  await dropFile(page, dialog.getByTestId('drop-zone'), 'gbp-hours.csv');
  await dialog.getByRole('button', { name: 'Check 4 rows' }).click();
  return { clientId, dialog };
}

test('a re-imported GBP sheet updates the changed phone, adds the new row and leaves the rest', async ({
  page,
}, testInfo) => {
  const { clientId, dialog } = await openImport(page, 'Northwind Coffee');

  // The first import: every GBP column with a field maps by itself, the hours day by day.
  await dropFile(page, dialog.getByTestId('drop-zone'), 'gbp-hours.csv');
  await expect(importAs(dialog, 'Store code')).toHaveText('Store code');
  await expect(importAs(dialog, 'Primary phone')).toHaveText('Phone');
  await expect(importAs(dialog, 'Website')).toHaveText('Website');
  await expect(importAs(dialog, 'Primary category')).toHaveText('Primary category');
  await expect(importAs(dialog, 'Labels')).toHaveText('Labels');
  await expect(importAs(dialog, 'Sunday hours')).toHaveText('Sunday hours');
  await expect(importAs(dialog, 'Saturday hours')).toHaveText('Saturday hours');
  await expect(dialog.getByText('Agency Desk does not store this.')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Check 4 rows' }).click();
  await expect(dialog.getByTestId('created-count')).toHaveText('4');
  await expect(dialog.getByTestId('samples')).toContainText('+1 206 555 0101');
  // The hours as read from the per-day columns, before anything is saved.
  await expect(dialog.getByTestId('samples')).toContainText(
    'Mon–Thu 07:00–19:00 · Fri 07:00–21:00 · Sat 08:00–12:00, 13:00–17:00 · Sun closed',
  );
  await dialog.getByTestId('samples').scrollIntoViewIfNeeded();
  await snap(page, testInfo, 'created-rows-with-hours');
  await dialog.getByRole('button', { name: 'Import 4 locations' }).click();
  await expect(dialog.getByTestId('imported-count')).toHaveText('4');
  const first = await listed(clientId);
  expect(first.find((row) => row.store_code === 'SEA-001')).toMatchObject({
    phone: '+12065550101',
    website: 'https://northwind.example/seattle',
    labels: ['pnw', 'flagship'],
    hours: {
      mon: [['07:00', '19:00']],
      sat: [
        ['08:00', '12:00'],
        ['13:00', '17:00'],
      ],
      sun: [],
    },
  });
  expect(first.find((row) => row.store_code === 'PDX-001')?.hours).toBeNull();

  // The edited sheet: checked in "add new locations only" first, then as an update.
  await dialog.getByRole('button', { name: 'Import another file' }).click();
  await dropFile(page, dialog.getByTestId('drop-zone'), 'gbp-hours-edited.csv');
  await dialog.getByRole('button', { name: 'Check 5 rows' }).click();
  await expect(dialog.getByTestId('skipped-count')).toHaveText('4');
  await expect(dialog.getByTestId('created-count')).toHaveText('1');
  await expect(
    dialog.getByRole('radio', { name: 'Update matching locations and add the rest', exact: true }),
  ).toHaveAccessibleDescription('Matched by store code, else Google place id, else name and address.');
  // The skipped row whose phone changed is said (a walk's was skipped without a word), with the way out.
  const differs = dialog.getByTestId('skipped-changes');
  await expect(differs).toContainText(
    '1 row is skipped though it differs from its location (line 3). Adding new locations only leaves that location as it is.',
  );
  await differs.getByRole('button', { name: 'Update matching locations instead' }).click();
  await expect(dialog.getByLabel('Update matching locations and add the rest')).toBeChecked();
  await expect(dialog.getByTestId('updated-count')).toHaveText('1');
  await expect(differs).toHaveCount(0);
  await expect(dialog.getByTestId('created-count')).toHaveText('1');
  await expect(dialog.getByTestId('unchanged-count')).toHaveText('3');
  await expect(dialog.getByTestId('skipped-count')).toHaveText('0');
  await expect(dialog.getByTestId('problem-count')).toHaveText('0');
  const update = dialog.getByTestId('updated-rows').getByRole('listitem');
  await expect(update).toHaveCount(1);
  await expect(update).toContainText('Northwind Coffee Capitol Hill');
  await expect(update.locator('[data-field="phone"]')).toHaveText(/Phone\s*\+1 206 555 0102\s*→\s*\+1 206 555 0199/);
  await expect(dialog.getByTestId('samples')).toContainText('Northwind Coffee Alberta');
  await snap(page, testInfo, 'upsert-preview');
  expect((await new AxeBuilder({ page }).include('.import-dialog').analyze()).violations).toEqual([]);
  await page.screenshot({ path: '/tmp/import-upsert-preview.png' });

  // A tile lists its rows only; a second click lists them all again.
  await dialog.getByRole('button', { name: /1\s*update/ }).click();
  await expect(dialog.getByTestId('samples')).toHaveCount(0);
  await expect(dialog.getByTestId('updated-rows')).toBeVisible();
  await dialog.getByRole('button', { name: /1\s*update/ }).click();
  await expect(dialog.getByTestId('samples')).toBeVisible();

  await dialog.getByRole('button', { name: 'Update 1 location and add 1' }).click();
  await expect(dialog.getByTestId('imported-count')).toHaveText('1');
  await expect(dialog.getByTestId('updated-summary-count')).toHaveText('1');
  await expect(dialog.getByTestId('unchanged-summary-count')).toHaveText('3');
  await expect(dialog.getByTestId('duplicate-skipped-count')).toHaveText('0');
  await page.screenshot({ path: '/tmp/import-upsert-summary.png' });
  await dialog.getByRole('button', { name: 'See the locations' }).click();
  await expect(page.getByTestId('count-all')).toHaveText('5');

  const after = await listed(clientId);
  expect(after.map((row) => [row.store_code, row.phone])).toEqual([
    ['SEA-001', '+12065550101'],
    ['SEA-002', '+12065550199'],
    ['PDX-001', '+15035550110'],
    ['LON-001', '+442079460001'],
    ['PDX-002', '+15035550111'],
  ]);
  // The blank cells of the sheet left the stored values alone.
  expect(after[0]).toMatchObject({ website: 'https://northwind.example/seattle', labels: ['pnw', 'flagship'] });

  // The history names each file the dashboard imported.
  const trail = await server().api<{ entries: { action: string; summary: { file_name?: string | null } }[] }>(
    'GET',
    `/api/audit?clientId=${clientId}`,
    { token: admin() },
  );
  const imports = trail.entries.filter((entry) => entry.action === 'locations.imported');
  expect(imports.map((entry) => entry.summary.file_name)).toEqual(['gbp-hours-edited.csv', 'gbp-hours.csv']);
});

test('update only: rows that match nothing are skipped with the reason, and nothing is created', async ({ page }) => {
  const { clientId, dialog } = await checkOnto(page, 'Only Updates', {
    name: 'Northwind Coffee Pike Place',
    store_code: 'SEA-001',
    phone: '+1 206 555 0100',
  });
  await dialog.getByLabel('Only update matching locations').check();
  await expect(dialog.getByTestId('updated-count')).toHaveText('1');
  await expect(dialog.getByTestId('skipped-count')).toHaveText('3');
  await expect(dialog.getByTestId('created-count')).toHaveText('0');
  await expect(dialog.getByTestId('duplicates')).toContainText(/No location/);
  await dialog.getByRole('button', { name: 'Update 1 location', exact: true }).click();
  await expect(dialog.getByTestId('updated-summary-count')).toHaveText('1');
  await expect(dialog.getByTestId('duplicate-skipped-count')).toHaveText('3');
  const rows = await listed(clientId);
  expect(rows.map((row) => [row.store_code, row.phone])).toEqual([['SEA-001', '+12065550101']]);
});

// A new user's walk: a stored location's store code differed from the sheet's; the upsert added a second
// location at the same address, and the preview had said nothing.
test('upsert: a row whose store code is new but whose address is a stored location is named in a warning', async ({
  page,
}, testInfo) => {
  const { dialog } = await checkOnto(page, 'Renumbered Coffee', {
    name: 'Northwind Coffee Capitol Hill',
    address: '1530 Broadway',
    store_code: 'SEA-002-OLD',
  });
  await dialog.getByLabel('Update matching locations and add the rest').check();
  await expect(dialog.getByTestId('created-count')).toHaveText('4');
  await expect(dialog.getByTestId('same-place')).toHaveText(
    '1 row matches a stored location by its address or place id, not by its store code (line 3). Importing adds a second ' +
      'location at that place. To update the stored location instead, give the row its store code (the export ' +
      'has them), or leave it out.',
  );
  await snap(page, testInfo, 'import-same-place');
  await dialog.getByLabel('Only update matching locations').check();
  await expect(dialog.getByTestId('same-place')).toContainText('It is skipped: nothing matches its store code.');
});

// A new user's walk: rows with a name and a city only were added again by every re-import of the same
// sheet, and the preview offered "Add 20 locations" without a word.
test('rows with no store code, place id or address are named in a warning: importing again would add them again', async ({
  page,
}, testInfo) => {
  const { clientId, dialog } = await openImport(page, 'Harbor Books Kiosks');
  await dropFile(page, dialog.getByTestId('drop-zone'), 'kiosks-no-address.csv');
  await dialog.getByRole('button', { name: 'Check 4 rows' }).click();
  const warning =
    '3 rows have no store code, place id or address (lines 2, 4, 5). Importing them again would add them again: ' +
    'nothing can match them to the locations they make. Give the rows store codes or addresses to keep them up to ' +
    'date by file.';
  await expect(dialog.getByTestId('no-key')).toHaveText(warning);
  await dialog.getByRole('button', { name: 'Import 4 locations' }).click();
  await expect(dialog.getByTestId('imported-count')).toHaveText('4');
  // The same file again, as an upsert: the one row with an address is unchanged, the three are new again.
  await dialog.getByRole('button', { name: 'Import another file' }).click();
  await dropFile(page, dialog.getByTestId('drop-zone'), 'kiosks-no-address.csv');
  await dialog.getByRole('button', { name: 'Check 4 rows' }).click();
  await dialog.getByLabel('Update matching locations and add the rest').check();
  await expect(dialog.getByTestId('created-count')).toHaveText('3');
  await expect(dialog.getByTestId('unchanged-count')).toHaveText('1');
  await expect(dialog.getByTestId('no-key')).toHaveText(warning);
  await snap(page, testInfo, 'import-no-key');
  expect(await listed(clientId)).toHaveLength(4);
});

// A probe: a row matched by its store code took another shop's place id, and nothing said so.
test("an update that gives a location another stored location's place id is named in a warning", async ({ page }) => {
  const { id: clientId } = await server().api<{ id: string }>('POST', '/api/clients', {
    token: admin(),
    body: { name: 'Bluebird Place Ids' },
  });
  const rows = [
    { name: 'Bluebird Pike', store_code: 'BB-1', google_place_id: 'ChIJN1t_tDeuEmsRUsoyG83frY4' },
    { name: 'Bluebird Ballard', store_code: 'BB-2' },
  ];
  await server().api('POST', '/api/locations/upload', { token: admin(), body: { clientId, rows } });
  await signIn(page, server().url, ADMIN.email, ADMIN.password);
  await page.goto(`${server().url}/clients/${clientId}`);
  await page.getByRole('button', { name: 'Import locations' }).click();
  const dialog = importer(page);
  await dropFile(page, dialog.getByTestId('drop-zone'), 'place-id-pasted-twice.csv');
  await dialog.getByRole('button', { name: 'Check 2 rows' }).click();
  await dialog.getByLabel('Update matching locations and add the rest').check();
  await expect(dialog.getByTestId('updated-count')).toHaveText('1');
  await expect(dialog.getByTestId('place-ids-taken')).toHaveText(
    '1 row gives its location the place id of another stored location (line 3). Two locations would then share ' +
      'one Google place. Check its Google place id in the file.',
  );
});

// A new user's walk: the sheet wrote SEA-001 where the app had sea-001, and the upsert made a second shop.
test('a row whose store code is a stored one in other capitals is named in a warning', async ({ page }) => {
  const { dialog } = await checkOnto(page, 'Case Coffee', {
    name: 'Northwind Coffee Pike Place',
    store_code: 'sea-001',
  });
  await dialog.getByLabel('Update matching locations and add the rest').check();
  await expect(dialog.getByTestId('created-count')).toHaveText('4');
  await expect(dialog.getByTestId('codes-in-other-case')).toHaveText(
    '1 row has the store code of a stored location in other capitals (line 2). Store codes match exactly: importing ' +
      'adds a second location. To update the stored location, write the code as stored (the export has it).',
  );
  await dialog.getByLabel('Only update matching locations').check();
  await expect(dialog.getByTestId('codes-in-other-case')).toContainText('Store codes match exactly: it is skipped.');
});

test('export -> re-import as an update: every field comes back, and nothing changes', async ({ page }, testInfo) => {
  const { clientId, dialog } = await openImport(page, 'Round Trip Coffee');
  await dropFile(page, dialog.getByTestId('drop-zone'), 'gbp-hours.csv');
  await dialog.getByRole('button', { name: 'Check 4 rows' }).click();
  await dialog.getByRole('button', { name: 'Import 4 locations' }).click();
  await dialog.getByRole('button', { name: 'See the locations' }).click();
  const [seattle] = await server().api<{ id: string }[]>('GET', `/api/locations?clientId=${clientId}`, {
    token: admin(),
  });
  await server().api('PATCH', `/api/locations/${seattle!.id}`, {
    token: admin(),
    body: { google_place_id: 'ChIJN1t_tDeuEmsRUsoyG83frY4' },
  });
  await page.reload();

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export all to CSV' }).click(),
  ]);
  const path = testInfo.outputPath('export.csv');
  await download.saveAs(path);
  const text = readFileSync(path, 'utf8');
  expect(text.startsWith('\uFEFFLocation id,Store code,Name,')).toBe(true);
  expect(text).toContain(`${seattle!.id},SEA-001,Northwind Coffee Pike Place,`);
  expect(text).toContain('ChIJN1t_tDeuEmsRUsoyG83frY4');
  expect(text).toContain('Sat 08:00-12:00,13:00-17:00; Sun closed');

  await page.getByRole('button', { name: 'Import locations' }).click();
  await dialog.getByTestId('file-input').setInputFiles(path);
  await expect(importAs(dialog, 'Location id')).toHaveText('Location id');
  await expect(importAs(dialog, 'Hours')).toHaveText('Hours (the whole week)');
  await expect(importAs(dialog, 'Health score')).toHaveText('Don’t import');
  await dialog.getByRole('button', { name: 'Check 4 rows' }).click();
  // An export coming back (it has the location ids) is checked as an update from the start.
  await expect(dialog.getByLabel('Update matching locations and add the rest')).toBeChecked();
  await expect(dialog.getByTestId('unchanged-count')).toHaveText('4');
  await expect(dialog.getByTestId('updated-count')).toHaveText('0');
  await expect(dialog.getByTestId('created-count')).toHaveText('0');
  await expect(dialog.getByTestId('problem-count')).toHaveText('0');
  await expect(dialog.getByRole('button', { name: 'Update 0 locations' })).toBeDisabled();
  await expect(dialog.getByRole('status').filter({ hasText: 'Nothing to write' })).toHaveText(
    'Nothing to write: every location already has these values (4 unchanged).',
  );
  await expect(dialog.getByTestId('foreign-ids')).toHaveCount(0);

  // The same export dropped on another client: its ids are none of this client's, and the preview says so.
  const { id: otherId } = await server().api<{ id: string }>('POST', '/api/clients', {
    token: admin(),
    body: { name: 'Not Round Trip Coffee' },
  });
  await page.goto(`${server().url}/clients/${otherId}`);
  await page.getByRole('button', { name: 'Import locations' }).click();
  await dialog.getByTestId('file-input').setInputFiles(path);
  await dialog.getByRole('button', { name: 'Check 4 rows' }).click();
  await expect(dialog.getByTestId('created-count')).toHaveText('4');
  await expect(dialog.getByRole('button', { name: 'Add 4 locations', exact: true })).toBeEnabled();
  await expect(dialog.getByTestId('foreign-ids')).toContainText(
    '4 rows carry a location id that is not one of this client’s (lines 2, 3, 4, 5).',
  );
  await snap(page, testInfo, 'import-foreign-ids');
});

test('an old export re-imported does not quietly undo a change made in the app since: its row is named and left out', async ({
  page,
}, testInfo) => {
  const { clientId, dialog } = await openImport(page, 'Kept Edits Coffee');
  await dropFile(page, dialog.getByTestId('drop-zone'), 'gbp-hours.csv');
  await dialog.getByRole('button', { name: 'Check 4 rows' }).click();
  await dialog.getByRole('button', { name: 'Import 4 locations' }).click();
  await dialog.getByRole('button', { name: 'See the locations' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export all to CSV' }).click(),
  ]);
  const path = testInfo.outputPath('export.csv');
  await download.saveAs(path);

  // A colleague changes Pike Place's phone in the app; the file is edited meanwhile: two names changed.
  const stored = await server().api<{ id: string; store_code: string }[]>(
    'GET',
    `/api/locations?clientId=${clientId}`,
    { token: admin() },
  );
  const pike = stored.find((location) => location.store_code === 'SEA-001')!;
  await server().api('PATCH', `/api/locations/${pike.id}`, { token: admin(), body: { phone: '(206) 555-0199' } });
  const edited = readFileSync(path, 'utf8')
    .replace(',Northwind Coffee Pike Place,', ',Northwind Coffee Pike Place Market,')
    .replace(',Northwind Coffee Capitol Hill,', ',Northwind Coffee Capitol Hill Broadway,');
  writeFileSync(path, edited);

  await page.getByRole('button', { name: 'Import locations' }).click();
  await dialog.getByTestId('file-input').setInputFiles(path);
  await expect(importAs(dialog, 'Updated')).toHaveText('Updated (as exported)');
  await dialog.getByRole('button', { name: 'Check 4 rows' }).click();
  await expect(dialog.getByTestId('updated-count')).toHaveText('2');
  const notice = dialog.getByTestId('changed-since');
  await expect(notice).toContainText(
    '1 row updates a location changed in Agency Desk since this file was exported (line 4).',
  );
  // The list of updates shows what importing the row would put back: the phone as it was.
  await expect(dialog.getByTestId('updated-rows')).toContainText('Phone+1 206 555 0199 → +1 206 555 0101');
  await snap(page, testInfo, 'import-changed-since');
  await notice.getByRole('button', { name: 'Leave this row out' }).click();
  await expect(dialog.getByTestId('changed-since')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Update 1 location' }).click();
  await dialog.getByRole('button', { name: 'See the locations' }).click();

  const after = await server().api<{ id: string; name: string; phone: string }[]>(
    'GET',
    `/api/locations?clientId=${clientId}`,
    { token: admin() },
  );
  // Pike Place keeps the colleague's phone (and its name: its row was left out); Capitol Hill is renamed.
  expect(after.find((location) => location.id === pike.id)).toMatchObject({
    name: 'Northwind Coffee Pike Place',
    phone: '+12065550199',
  });
  expect(after.map((location) => location.name)).toContain('Northwind Coffee Capitol Hill Broadway');
});

test('an export saved again by Excel, its store codes stripped of their zeros, changes nothing and says why', async ({
  page,
}, testInfo) => {
  const { id: clientId } = await server().api<{ id: string }>('POST', '/api/clients', {
    token: admin(),
    body: { name: 'Zeros Coffee' },
  });
  const rows = [
    { name: 'Zeros Coffee Downtown', store_code: '00101', city: 'Tulsa', state: 'OK', country: 'US' },
    { name: 'Zeros Coffee Uptown', store_code: '0102', city: 'Tulsa', state: 'OK', country: 'US' },
  ];
  await server().api('POST', '/api/locations/upload', { token: admin(), body: { clientId, rows } });
  await signIn(page, server().url, ADMIN.email, ADMIN.password);
  await page.goto(`${server().url}/clients/${clientId}`);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export all to CSV' }).click(),
  ]);
  const exported = testInfo.outputPath('export.csv');
  await download.saveAs(exported);
  // What Excel writes back: the codes read as numbers.
  const saved = testInfo.outputPath('export-from-excel.csv');
  writeFileSync(saved, readFileSync(exported, 'utf8').replace(',00101,', ',101,').replace(',0102,', ',102,'));

  await page.getByRole('button', { name: 'Import locations' }).click();
  const dialog = importer(page);
  await dialog.getByTestId('file-input').setInputFiles(saved);
  await dialog.getByRole('button', { name: 'Check 2 rows' }).click();
  await expect(dialog.getByTestId('unchanged-count')).toHaveText('2');
  await expect(dialog.getByTestId('codes-without-zeros')).toHaveText(
    '2 rows have store codes without their leading zeros (lines 2, 3). Excel saves a code of digits as a number ' +
      '(00123 as 123). They are read as the stored codes, with the zeros, and those codes stay as they are.',
  );
  expect((await new AxeBuilder({ page }).include('.import-dialog').analyze()).violations).toEqual([]);
  await snap(page, testInfo, 'import-codes-without-zeros');
  expect((await listed(clientId)).map((location) => location.store_code)).toEqual(['00101', '0102']);
});

test("a client's next import starts with the mode its last one was made with, on this computer and another", async ({
  page,
  browser,
}) => {
  const { clientId, dialog } = await checkOnto(page, 'Monthly Coffee', {
    name: 'Northwind Coffee Pike Place',
    store_code: 'SEA-001',
  });
  await expect(dialog.getByLabel('Add new locations only')).toBeChecked();
  await dialog.getByLabel('Update matching locations and add the rest').check();
  await expect(dialog.getByTestId('updated-count')).toHaveText('1');
  await dialog.getByRole('button', { name: 'Update 1 location and add 3' }).click();
  await dialog.getByRole('button', { name: 'See the locations' }).click();

  // Next month's sheet: the dialog remembers this client's choice.
  await page.getByRole('button', { name: 'Import locations' }).click();
  await dropFile(page, dialog.getByTestId('drop-zone'), 'gbp-hours.csv');
  await dialog.getByRole('button', { name: 'Check 4 rows' }).click();
  await expect(dialog.getByLabel('Update matching locations and add the rest')).toBeChecked();
  await expect(dialog.getByTestId('unchanged-count')).toHaveText('4');

  // A colleague's computer (nothing in its storage) starts there too: the client's history says it.
  const colleague = await browser.newContext();
  const other = await colleague.newPage();
  await signIn(other, server().url, ADMIN.email, ADMIN.password);
  await other.goto(`${server().url}/clients/${clientId}`);
  await other.getByRole('button', { name: 'Import locations' }).click();
  const theirs = importer(other);
  await dropFile(other, theirs.getByTestId('drop-zone'), 'gbp-hours.csv');
  await theirs.getByRole('button', { name: 'Check 4 rows' }).click();
  await expect(theirs.getByLabel('Update matching locations and add the rest')).toBeChecked();
  await expect(theirs.getByTestId('unchanged-count')).toHaveText('4');
  await colleague.close();
});

test('a month in one walk: a location edited, every status bulk-edited, then the edited GBP sheet re-imported as upsert keeps both', async ({
  page,
}) => {
  const { clientId, dialog } = await openImport(page, 'Northwind Month');
  await dropFile(page, dialog.getByTestId('drop-zone'), 'gbp-hours.csv');
  await dialog.getByRole('button', { name: 'Check 4 rows' }).click();
  await dialog.getByRole('button', { name: 'Import 4 locations' }).click();
  await dialog.getByRole('button', { name: 'See the locations' }).click();

  // An edit in the location's panel: the sheet leaves this website blank.
  await page.getByTestId('location-row').filter({ hasText: 'Pearl District' }).click();
  const panel = page.getByTestId('location-panel');
  await panel.getByRole('button', { name: 'Edit location' }).click();
  await panel.getByRole('textbox', { name: /^Website/ }).fill('northwind.example/pearl');
  await panel.getByRole('button', { name: 'Save 1 change' }).click();
  await expect(panel.getByRole('button', { name: 'Edit location' })).toBeVisible();
  await panel.getByRole('button', { name: 'Close' }).click();

  // A bulk edit of every location's status: the sheet has no status column.
  await page.getByRole('button', { name: 'Change the 4 locations shown…' }).click();
  const bulk = page.getByRole('dialog', { name: 'Change the 4 locations shown' });
  await bulk.getByLabel('What to do').selectOption({ label: 'Set the status' });
  await bulk.getByRole('combobox', { name: /^Status/ }).selectOption({ label: 'Temporarily closed' });
  await bulk.getByRole('button', { name: 'Change 4 locations' }).click();
  await expect(bulk.getByRole('status')).toHaveText('4 locations changed.');
  await bulk.getByRole('button', { name: 'Done' }).click();

  // The edited sheet as upsert: its one changed phone is the one update, with its diff; the edits stand.
  await page.getByRole('button', { name: 'Import locations' }).click();
  const again = importer(page);
  await dropFile(page, again.getByTestId('drop-zone'), 'gbp-hours-edited.csv');
  await again.getByRole('button', { name: 'Check 5 rows' }).click();
  await again.getByLabel('Update matching locations and add the rest').check();
  await expect(again.getByTestId('updated-count')).toHaveText('1');
  await expect(again.getByTestId('created-count')).toHaveText('1');
  await expect(again.getByTestId('unchanged-count')).toHaveText('3');
  const update = again.getByTestId('updated-rows').getByRole('listitem');
  await expect(update).toHaveCount(1);
  await expect(update.locator('[data-field]')).toHaveCount(1);
  await expect(update.locator('[data-field="phone"]')).toHaveText(/Phone\s*\+1 206 555 0102\s*→\s*\+1 206 555 0199/);
  await again.getByRole('button', { name: 'Update 1 location and add 1' }).click();
  await expect(again.getByTestId('updated-summary-count')).toHaveText('1');

  const after = await server().api<{ store_code: string; phone: string; website: string | null; status: string }[]>(
    'GET',
    `/api/locations?clientId=${clientId}`,
    { token: admin() },
  );
  expect(after.map((row) => [row.store_code, row.phone, row.status])).toEqual([
    ['SEA-001', '+12065550101', 'temporarily_closed'],
    ['SEA-002', '+12065550199', 'temporarily_closed'],
    ['PDX-001', '+15035550110', 'temporarily_closed'],
    ['LON-001', '+442079460001', 'temporarily_closed'],
    ['PDX-002', '+15035550111', 'open'],
  ]);
  expect(after.find((row) => row.store_code === 'PDX-001')?.website).toBe('https://northwind.example/pearl');
});
