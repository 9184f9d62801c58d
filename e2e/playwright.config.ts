import { defineConfig } from '@playwright/test';
import { E2E_GATEWAY_URL, E2E_PORT_OFFSET } from './env';

// Both from Debian's chromium source package, one version: the full browser (package chromium) and its
// headless shell (package chromium-headless-shell), the same Blink and V8 without the browser's own
// layer, which Playwright itself runs headless journeys in. The shell took the journeys' time from
// 179–203 s to 134–144 s, side by side on one host (decision 109). CHROMIUM_PATH runs every journey
// in the browser it names.
const FULL_BROWSER = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HEADLESS_SHELL = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

function chromium(executablePath: string) {
  return {
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  };
}

/** Browser journeys in Debian's Chromium (never a downloaded browser) against the real stack. */
export default defineConfig({
  testDir: './tests',
  globalSetup: './global-setup.ts',
  // A journey's whole budget; what a person waits for is bounded by `expect`'s. Long journeys take
  // 18–28 s on a quiet host, and the same host an hour later ran them 1.35× slower: the budget leaves room.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  // Three journeys at once: with two the cores were idle a quarter of the stage after jest, each journey
  // waiting for its page; a third took the stage from 355 to 301 s on the same host (decision 111).
  workers: 3,
  fullyParallel: false,
  // One retry in CI for drag-and-drop timing on a loaded 2-core machine; a retried test is reported as flaky.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['json', { outputFile: '../.data/reports/playwright.json' }]],
  outputDir: `../.data/test-results/${E2E_PORT_OFFSET}`,
  projects: [
    { name: 'journeys', grepInvert: /@outage|@alone/, use: { launchOptions: chromium(HEADLESS_SHELL) } },
    // Journeys that stop a service of the shared stack, or need it to themselves: after all others, one
    // at a time, in the full browser.
    {
      name: 'outages',
      grep: /@outage|@alone/,
      dependencies: ['journeys'],
      workers: 1,
      use: { launchOptions: chromium(FULL_BROWSER) },
    },
  ],
  use: {
    baseURL: E2E_GATEWAY_URL,
    locale: 'ru-RU',
    timezoneId: 'Europe/Moscow',
    // Recording a trace roughly doubles a journey's time on this 2-core machine (measured: the landing
    // journeys took 110 s with traces and 56 s without), so the first try runs without one and the retry, which
    // CI makes of every failure, records it: each failure comes with its trace.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
  },
});
