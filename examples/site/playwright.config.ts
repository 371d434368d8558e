import { defineConfig } from '@playwright/test';

/**
 * Browser tests of the example site against a real Folio (test/support/folio.ts), the site run as a
 * developer and a build would run it (`next dev`, `npm run build:site`, `next start`). Debian's
 * Chromium, not a Playwright download (none can be fetched here). One worker: the machine has two
 * cores, and the tests build the site.
 */
export default defineConfig({
  testDir: './test',
  testMatch: '**/*.spec.ts',
  workers: 1,
  fullyParallel: false,
  timeout: 240_000,
  expect: { timeout: 15_000 },
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
