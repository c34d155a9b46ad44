import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { BASE_URL, E2E_BASE_PORT, WORLD_PORTS } from './support/env';

/**
 * Workers, each with a world of its own (support/env.ts): one unless E2E_WORKERS says more.
 * `npm test` runs two, since one worker leaves most of a 2-core machine idle while it waits on
 * the server, timers and rendering (bench/RESULTS.md, "CI duration").
 */
const WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 1));

// Debian's Chromium, never a downloaded browser (the machine has no internet).
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  timeout: 45_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  reporter: [
    ['list'],
    [
      'json',
      {
        outputFile:
          process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ??
          fileURLToPath(new URL('../../.test-output/playwright.json', import.meta.url)),
      },
    ],
  ],
  outputDir: '../../test-results',
  use: {
    baseURL: BASE_URL,
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-quic',
        '--disable-sync',
        '--autoplay-policy=no-user-gesture-required',
      ],
    },
  },
  // One e2e world per worker; a worker reaches its own through BASE_URL (support/env.ts).
  webServer: Array.from({ length: WORKERS }, (_, world) => {
    const port = E2E_BASE_PORT + WORLD_PORTS * world;
    return {
      command: 'npx tsx tests/e2e/server.ts',
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env: { E2E_PORT: String(port) },
      url: `http://localhost:${port}/api/health`,
      reuseExistingServer: false,
      timeout: 90_000,
      stdout: 'pipe' as const,
      stderr: 'pipe' as const,
    };
  }),
});
