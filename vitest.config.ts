import { defineConfig } from 'vitest/config';

// Two projects: fast unit tests next to the code, and API tests that build the real app on a
// fresh database per file (SQLite by default, PostgreSQL with TEST_DB=postgres), each a copy of
// one database migrated per run by the globalSetup.
export default defineConfig({
  test: {
    // Each API test file has its own database; two files at a time is what a 2-core machine takes well.
    maxWorkers: 2,
    minWorkers: 1,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'sim/**/*.test.ts', 'tests/unit/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          // Hundreds of sign-ins: a cheap scrypt cost here; unit tests check the real one.
          setupFiles: ['tests/helpers/cheap-passwords.ts'],
          globalSetup: ['tests/helpers/db-template-setup.ts'],
          // Every file builds its own app on its own database and none mocks a module, so a worker
          // keeps the modules it imported for its next file instead of importing the whole server
          // again per file (bench/RESULTS.md, "CI duration").
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
