import { expect, test } from '@playwright/test';
import { ADMIN, startServer, type RunningServer } from './server.js';
import { signIn, snap } from './dashboard.js';

let server: RunningServer;
let northwind: string;
const VIEWER = { email: 'viewer@agency.test', password: 'viewer-password-1' };
const CLIENT_VIEWER = { email: 'owner@northwind.test', password: 'client-password-1' };

test.beforeAll(async () => {
  server = await startServer();
  const admin = await server.signIn(ADMIN.email, ADMIN.password);
  northwind = (
    await server.api<{ id: string }>('POST', '/api/clients', { token: admin, body: { name: 'Northwind Coffee' } })
  ).id;
  await server.api('POST', '/api/clients', {
    token: admin,
    body: { name: 'Contoso Dental', industry: 'Dental clinics' },
  });
  await server.api('POST', '/api/locations/upload', {
    token: admin,
    body: {
      clientId: northwind,
      rows: [
        {
          name: 'Pike Place',
          address: '1912 Pike Pl',
          city: 'Seattle',
          state: 'WA',
          zip: '98101',
          country: 'US',
          google_place_id: 'ChIJN1t_tDeuEmsRUsoyG83frY4',
        },
        { name: 'Capitol Hill', city: 'Seattle', state: 'WA', country: 'US' },
        { name: 'Pop-up stand' },
      ],
    },
  });
  await server.api('POST', '/api/users', { token: admin, body: { ...VIEWER, role: 'viewer' } });
  await server.api('POST', '/api/users', {
    token: admin,
    body: { ...CLIENT_VIEWER, role: 'client_viewer', clientId: northwind },
  });
});
test.afterAll(async () => {
  await server.stop();
});

test('a Viewer sees every client and its locations, and no control that writes', async ({ page }, testInfo) => {
  await signIn(page, server.url, VIEWER.email, VIEWER.password);
  await expect(page.getByTestId('signed-in-role')).toHaveText('Viewer');
  await expect(page.getByRole('link', { name: 'Northwind Coffee' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Contoso Dental' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New client' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Users' })).toHaveCount(0);
  await snap(page, testInfo, 'viewer-clients');

  await page.getByRole('link', { name: 'Northwind Coffee' }).click();
  await expect(page.getByTestId('location-row')).toHaveCount(3);
  await expect(page.getByTestId('count-green')).toHaveText('1');
  await expect(page.getByTestId('count-red')).toHaveText('2');
  await expect(page.getByRole('button', { name: 'Import locations' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Delete this client/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Export all to CSV' })).toBeVisible();
  await snap(page, testInfo, 'viewer-locations');
  // A location's panel shows its fields, with nothing to edit or delete.
  await page.getByTestId('location-row').first().click();
  await expect(page.getByTestId('location-panel')).toBeVisible();
  await expect(page.getByTestId('location-panel').getByRole('button', { name: /Delete|Edit/ })).toHaveCount(0);

  // The Users and Backups pages are an Admin's: a Viewer who types their address (or signs in where an
  // Admin signed out) gets no list, and is told why rather than that the page does not exist.
  for (const path of ['/users', '/backups']) {
    await page.goto(`${server.url}${path}`);
    await expect(page.getByRole('heading', { name: 'Only an Admin can see this page' })).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
  }
});

test('a Client Viewer lands straight on its client and cannot reach the others', async ({ page }, testInfo) => {
  await signIn(page, server.url, CLIENT_VIEWER.email, CLIENT_VIEWER.password);
  await expect(page.getByTestId('signed-in-role')).toHaveText('Client Viewer');
  await expect(page).toHaveURL(`${server.url}/clients/${northwind}`);
  await expect(page.getByRole('heading', { name: 'Northwind Coffee', level: 1 })).toBeVisible();
  await expect(page.getByTestId('location-row')).toHaveCount(3);
  await expect(page.getByRole('link', { name: 'Clients' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Import locations' })).toHaveCount(0);
  await snap(page, testInfo, 'client-viewer-locations');

  await page.goto(`${server.url}/clients`);
  await expect(page).toHaveURL(`${server.url}/clients/${northwind}`);
  await expect(page.getByText('Contoso Dental')).toHaveCount(0);
});

test('a session that cannot be refreshed asks for the password over the page, then goes on', async ({ page }) => {
  await signIn(page, server.url, VIEWER.email, VIEWER.password);
  // Tokens the server does not know stand in for a session it revoked (say, after a refresh token was reused).
  await page.evaluate(() => {
    const saved = JSON.parse(sessionStorage.getItem('agency-desk.session') ?? '{}') as Record<string, unknown>;
    sessionStorage.setItem(
      'agency-desk.session',
      JSON.stringify({ ...saved, accessToken: 'revoked', refreshToken: 'revoked', expiresAt: Date.now() + 3_600_000 }),
    );
  });
  await page.reload();
  // Not a trip to the sign-in page: a dialog over the dashboard, so nothing open would be lost.
  const again = page.getByRole('dialog', { name: 'Sign in again to go on' });
  await expect(again).toContainText('Your session has ended.');
  await again.getByLabel('Password').fill(VIEWER.password);
  await again.getByRole('button', { name: 'Sign in' }).click();
  await expect(again).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Clients', level: 1 })).toBeVisible();
  await expect(page.getByTestId('signed-in-user')).toHaveText(VIEWER.email);
});

test('a refresh the server cannot answer now (503) keeps the session', async ({ page }) => {
  await signIn(page, server.url, VIEWER.email, VIEWER.password);
  // The real server answers 503 only while it closes or waits for a long write; the route stands in for that.
  let refreshes = 0;
  await page.route('**/auth/refresh', (route) => {
    refreshes += 1;
    return route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: 'Busy; try again' }),
    });
  });
  // An access token close to its end makes the dashboard refresh as soon as it loads.
  await page.evaluate(() => {
    const saved = JSON.parse(sessionStorage.getItem('agency-desk.session') ?? '{}') as Record<string, unknown>;
    sessionStorage.setItem('agency-desk.session', JSON.stringify({ ...saved, expiresAt: Date.now() + 30_000 }));
  });
  await page.reload();
  await expect.poll(() => refreshes).toBeGreaterThan(0);
  await expect(page.getByRole('heading', { name: 'Clients' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toHaveCount(0);
});
