import { defineConfig } from '@playwright/test';

/**
 * Browser tests of the dashboard against real Folio servers (test/support/folio.ts starts one per
 * file). Debian's Chromium, not a Playwright download (none can be fetched here). One worker: the
 * machine has two cores, and each file runs its own server beside the browser.
 */
export default defineConfig({
  testDir: './test',
  testMatch: '**/*.spec.ts',
  workers: 1,
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/results.json' }]],
  outputDir: 'test-results/artifacts',
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 860 },
    actionTimeout: 10_000,
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // Chromium's own background connections have nowhere to go on a closed network.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
