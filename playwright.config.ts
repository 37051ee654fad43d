import { defineConfig } from '@playwright/test';
import { chromiumLaunch } from './test/e2e/chromium.js';

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results',
  // Each test file starts its own server on a fresh data directory; two at a time fit two cores.
  workers: 2,
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['./test/e2e/failure-context-reporter.ts']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1440, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    acceptDownloads: true,
    launchOptions: chromiumLaunch,
  },
});
