import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

/** Debian's Chromium (Playwright's own browser download is not available here); see .ci/run. */
export const CHROMIUM_PATH = process.env.CAIRN_CHROMIUM ?? '/usr/bin/chromium';

// Each test's backend opens a new database: from a migrated template, as in vitest.config.ts.
process.env.CAIRN_DB_TEMPLATES ??= join(process.cwd(), '.cache', 'db-templates');

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  outputDir: 'test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // One spec file at a time by default: at load 17-20 two workers had the first 4 tests time out (one
  // worker lost 4 of 6 there too), and two have not yet been measured on a quiet machine
  // (docs/decisions/test-speed.md). CAIRN_E2E_WORKERS=2 runs two, each test still with its own backend.
  workers: Number(process.env.CAIRN_E2E_WORKERS) || 1,
  fullyParallel: false,
  // The JSON report goes to PLAYWRIGHT_JSON_OUTPUT_NAME when set (scripts/test.js counts tests from it).
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? 'test-results/playwright.json' }],
  ],
  use: {
    viewport: { width: 1280, height: 820 },
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'web',
      testMatch: /web\/.*\.spec\.ts/,
      use: {
        browserName: 'chromium',
        launchOptions: {
          executablePath: CHROMIUM_PATH,
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--no-first-run',
            '--disable-sync',
          ],
        },
      },
    },
    { name: 'electron', testMatch: /electron\/.*\.spec\.ts/ },
  ],
});
