import { chromium } from '@playwright/test';
const base = 'http://127.0.0.1:4931';
const post = async (path, body, token, type = 'application/json') => (await fetch(base + path, { method: 'POST', headers: { 'content-type': type, ...(token ? { authorization: 'Bearer ' + token } : {}) }, body: typeof body === 'string' ? body : JSON.stringify(body) })).json();
const { access_token: token } = await post('/auth/callback', { email: 'admin@example.com', password: 'correct horse' });
const client = await post('/api/clients', { name: 'Bluebird Coffee Co.', industry: 'Cafés', website: 'bluebird.example' }, token);
await post('/api/locations/upload', { clientId: client.id, rows: [
  { name: 'Bluebird Downtown', address: '12 Main St', city: 'Springfield', state: 'IL', zip: '62701', country: 'US', status: 'temporarily_closed' },
  { name: 'Bluebird Westside', address: '400 W Jefferson St', city: 'Springfield', state: 'IL', zip: '62702', country: 'US' } ] }, token);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
for (const [w, h] of [[800, 800], [1024, 700]]) {
  const page = await browser.newPage({ viewport: { width: w, height: h } });
  await page.goto(base + '/');
  await page.getByLabel('E-mail').fill('admin@example.com');
  await page.getByLabel('Password').fill('correct horse');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  await page.goto(`${base}/clients/${client.id}`);
  await page.getByTestId('shown-count').waitFor();
  await page.screenshot({ path: `/tmp/exp/shot-client-${w}.png` });
  const csv = 'Name,Address,City,State,Postal code,Country,Phone\n' + Array.from({ length: 6 }, (_, i) => `Store ${i},${i} Lake Shore Dr,Springfield,IL,6270${i},US,(217) 555-014${i}`).join('\n') + '\nBad,1 X St,Springfield,IL,62701,US,555-01\n';
  await page.getByRole('button', { name: /Import/ }).first().click();
  await page.locator('input[type=file]').setInputFiles({ name: 'stores.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: /^Check/ }).click().catch(() => {});
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `/tmp/exp/shot-preview-${w}.png` });
  await page.locator('.dialog-body').evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await page.waitForTimeout(300);
  await page.screenshot({ path: `/tmp/exp/shot-preview-bottom-${w}.png` });
  await page.close();
}
await browser.close();
