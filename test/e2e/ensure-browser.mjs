// Before the browser tests (npm test): Debian's chromium when it is there, else Playwright's own build,
// downloaded once if missing. A fresh macOS, Windows or Ubuntu machine then runs every test, instead of
// failing at the last step; where the download cannot run, one line says what to do.
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import { existsSync } from 'node:fs';
import process from 'node:process';
import { chromium } from '@playwright/test';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

function playwrightChromium() {
  try {
    return chromium.executablePath();
  } catch {
    return '';
  }
}

if (!existsSync(DEBIAN_CHROMIUM) && !existsSync(playwrightChromium())) {
  console.log("No chromium for the browser tests: getting Playwright's (npx playwright install chromium)...");
  const installed = spawnSync('npx', ['playwright', 'install', 'chromium'], {
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (installed.status !== 0 || !existsSync(playwrightChromium())) {
    console.error(
      'The browser tests need chromium: run "npx playwright install chromium" (or, on Debian, "apt install chromium"), then npm test again.',
    );
    process.exit(1);
  }
}
