import { existsSync } from 'node:fs';

// CI and this machine run Debian's chromium; elsewhere Playwright's own build (npx playwright install chromium).
const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** How the end-to-end tests and the bench launch chromium. */
export const chromiumLaunch = {
  executablePath: existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
