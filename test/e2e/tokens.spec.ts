import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from '@playwright/test';
import { ADMIN, startServer, type RunningServer } from './server.js';
import { signIn, snap } from './dashboard.js';

let server: RunningServer;
test.beforeAll(async () => {
  server = await startServer();
});
test.afterAll(async () => {
  await server.stop();
});

test.describe.configure({ mode: 'serial' });

/** What a script does with a token: plain fetch from Node. */
async function listClients(token: string): Promise<number> {
  const response = await fetch(`${server.url}/api/clients`, { headers: { Authorization: `Bearer ${token}` } });
  return response.status;
}

interface DeviceAuthorization {
  device_code: string;
  user_code: string;
  verification_uri_complete: string;
  interval: number;
}

async function askForAccess(clientName: string, scope: string): Promise<DeviceAuthorization> {
  const response = await fetch(`${server.url}/auth/device`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: clientName, scope }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as DeviceAuthorization;
}

/** Polls the token endpoint as RFC 8628 §3.5 asks (the interval, 5 s more after slow_down) until an answer. */
async function pollForToken(asked: DeviceAuthorization): Promise<{ status: number; body: Record<string, string> }> {
  let interval = asked.interval;
  for (;;) {
    const response = await fetch(`${server.url}/auth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
        device_code: asked.device_code,
      }).toString(),
    });
    const body = (await response.json()) as Record<string, string>;
    if (body.error === 'slow_down') interval += 5;
    else if (body.error !== 'authorization_pending') return { status: response.status, body };
    await sleep(interval * 1000);
  }
}

test('create a token in the dashboard, use it from Node, revoke it in the dashboard: 401', async ({
  page,
}, testInfo) => {
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.getByRole('link', { name: 'Scripts & API tokens' }).click();
  await expect(page.getByRole('heading', { name: 'Scripts & API tokens', level: 1 })).toBeVisible();
  await expect(page.getByText('No active API tokens.')).toBeVisible();

  await page.getByRole('button', { name: 'Create a token' }).click();
  const create = page.getByRole('dialog', { name: 'Create an API token' });
  await create.getByLabel('Name').fill('nightly import');
  await create.getByRole('checkbox', { name: /^import/ }).check();
  await create.getByLabel('Expires').selectOption({ label: 'In 30 days' });
  await create.getByRole('button', { name: 'Create token' }).click();

  const shown = page.getByRole('dialog', { name: 'Token nightly import created' });
  const secret = (await shown.getByTestId('token-secret').textContent()) ?? '';
  expect(secret).toMatch(/^adk_pat_[A-Za-z0-9_-]{43}$/);
  await expect(shown.getByText(`curl -H "Authorization: Bearer ${secret}" ${server.url}/api/clients`)).toBeVisible();
  await expect(shown.getByText('urllib.request.urlopen')).toBeVisible();
  await snap(page, testInfo, 'token-created');
  await shown.getByRole('button', { name: 'Done' }).click();

  const row = page.getByRole('row').filter({ hasText: 'nightly import' });
  await expect(row).toContainText('read, import');
  await expect(row.getByRole('cell').nth(3)).toHaveText('Never');

  expect(await listClients(secret)).toBe(200);
  await page.reload();
  // When, to the minute, as the server keeps it.
  await expect(page.getByRole('row').filter({ hasText: 'nightly import' }).getByRole('cell').nth(3)).toHaveText(
    /\d{4}, \d{1,2}:\d{2}/,
  );

  await page.getByRole('button', { name: 'Revoke nightly import' }).click();
  await page
    .getByRole('dialog', { name: 'Revoke nightly import?' })
    .getByRole('button', { name: 'Revoke token' })
    .click();
  await expect(page.getByText('No active API tokens.')).toBeVisible();
  expect(await listClients(secret)).toBe(401);
});

test('a token without "read": its examples ask GET /api/me, which answers it (a walk got a 403 from the clients)', async ({
  page,
}) => {
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.getByRole('link', { name: 'Scripts & API tokens' }).click();
  await page.getByRole('button', { name: 'Create a token' }).click();
  const create = page.getByRole('dialog', { name: 'Create an API token' });
  await create.getByLabel('Name').fill('clients only');
  await create.getByRole('checkbox', { name: /^read/ }).uncheck();
  await create.getByRole('checkbox', { name: /^clients/ }).check();
  await create.getByRole('button', { name: 'Create token' }).click();
  const shown = page.getByRole('dialog', { name: 'Token clients only created' });
  const secret = (await shown.getByTestId('token-secret').textContent()) ?? '';
  await expect(shown.getByText(`curl -H "Authorization: Bearer ${secret}" ${server.url}/api/me`)).toBeVisible();
  await expect(shown.getByText('print(me["email"], me["access"]["scopes"])')).toBeVisible();
  const me = await fetch(`${server.url}/api/me`, { headers: { Authorization: `Bearer ${secret}` } });
  expect(me.status).toBe(200);
  expect(((await me.json()) as { access: { scopes: string[] } }).access.scopes).toEqual(['clients']);
  expect(await listClients(secret)).toBe(403);
});

test('a script asks while the dashboard is open on another page; the person approves; the script gets its token', async ({
  page,
}, testInfo) => {
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await expect(page.getByRole('heading', { name: 'No clients yet' })).toBeVisible();

  const asked = await askForAccess('inventory sync', 'read');
  const prompt = page.getByRole('alert', { name: 'A script asks for access' });
  await expect(prompt).toContainText(
    'A script called "inventory sync" asks to read clients and locations on all clients',
  );
  await expect(prompt).toContainText(asked.user_code);
  await snap(page, testInfo, 'device-prompt');
  await prompt.getByRole('button', { name: 'Approve' }).click();
  await expect(prompt).toBeHidden();

  const granted = await pollForToken(asked);
  expect(granted.status).toBe(200);
  expect(granted.body).toMatchObject({ token_type: 'bearer', scope: 'read' });
  expect(await listClients(granted.body.access_token!)).toBe(200);
  // The approved token is the approver's, named after the script, in the list.
  await page.getByRole('link', { name: 'Scripts & API tokens' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'inventory sync' })).toContainText('read');
});

test("a script's verification_uri_complete opens its request; Deny gives the script access_denied", async ({
  page,
}) => {
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  const other = await askForAccess('unknown tool', 'read');
  const asked = await askForAccess('price scraper', 'read import');
  await page.goto(asked.verification_uri_complete);
  const prompt = page.getByRole('alert', { name: 'A script asks for access' });
  await expect(prompt).toContainText('price scraper');
  await expect(prompt).not.toContainText(other.user_code);
  await prompt.getByRole('button', { name: 'Deny' }).click();
  const denied = await pollForToken(asked);
  expect(denied).toEqual({ status: 400, body: { error: 'access_denied', error_description: expect.any(String) } });
  await server.api('POST', '/api/device/deny', {
    token: await server.signIn(ADMIN.email, ADMIN.password),
    body: { user_code: other.user_code },
  });
});

test('the token list says which client each token is limited to, by name, or "All clients"', async ({
  page,
}, testInfo) => {
  const admin = await server.signIn(ADMIN.email, ADMIN.password);
  const { id: bluebird } = await server.api<{ id: string }>('POST', '/api/clients', {
    token: admin,
    body: { name: 'Bluebird Coffee' },
  });
  await server.api('POST', '/api/tokens', {
    token: admin,
    body: { name: 'bluebird sync', scopes: ['read'], clientId: bluebird },
  });
  await signIn(page, server.url, ADMIN.email, ADMIN.password);
  await page.getByRole('link', { name: 'Scripts & API tokens' }).click();

  await page.getByRole('button', { name: 'Create a token' }).click();
  const create = page.getByRole('dialog', { name: 'Create an API token' });
  await create.getByLabel('Name').fill('everywhere report');
  await create.getByRole('button', { name: 'Create token' }).click();
  await page
    .getByRole('dialog', { name: 'Token everywhere report created' })
    .getByRole('button', { name: 'Done' })
    .click();

  await expect(page.getByRole('columnheader', { name: 'Client' })).toBeVisible();
  const clientCell = (name: string) => page.getByRole('row').filter({ hasText: name }).getByRole('cell').nth(2);
  await expect(clientCell('bluebird sync')).toHaveText('Bluebird Coffee');
  await expect(clientCell('everywhere report')).toHaveText('All clients');
  await snap(page, testInfo, 'tokens-with-client');
});
