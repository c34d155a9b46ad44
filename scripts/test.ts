/**
 * `npm test`: the whole suite, in order: services check, typecheck, lint, layering, unit + API tests on
 * SQLite, API tests on PostgreSQL, browser build, browser e2e. Every step runs even when an
 * earlier one failed, so one run shows everything; the last line is the summary CI reads, and the
 * same counts go to .test-output/<name>/summary.json for .ci/run to add up.
 *
 * `--only-node-suites`: unit and API tests (both databases) only: CI runs them again on Node 22.
 * `--name NAME`: the output folder's name (default "full"), so two runs keep their reports apart.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const onlyNodeSuites = args.includes('--only-node-suites');
const nameAt = args.indexOf('--name');
const name = nameAt >= 0 ? (args[nameAt + 1] ?? '') : 'full';
if (!/^[\w-]+$/.test(name)) throw new Error('--name takes letters, digits, - and _');
const out = path.resolve('.test-output', name);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

interface Tally {
  passed: number;
  failed: number;
  skipped: number;
}
const total: Tally = { passed: 0, failed: 0, skipped: 0 };

function run(title: string, command: string, args: string[], env: Record<string, string> = {}): boolean {
  console.log(`\n=== ${title}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = result.status === 0;
  console.log(
    `=== ${title}: ${ok ? 'ok' : `FAILED (exit ${result.status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return ok;
}

/** A check that is not a test runner (typecheck, lint, build) counts as one test. */
function check(title: string, command: string, args: string[]): boolean {
  const ok = run(title, command, args);
  if (ok) total.passed++;
  else total.failed++;
  return ok;
}

function addVitest(file: string, stepOk: boolean): void {
  if (!existsSync(file)) {
    total.failed++;
    return;
  }
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    numFailedTestSuites: number;
  };
  total.passed += report.numPassedTests;
  total.failed += report.numFailedTests + (report.numFailedTests === 0 && !stepOk ? 1 : 0);
  total.skipped += report.numPendingTests + report.numTodoTests;
}

function addPlaywright(file: string, stepOk: boolean): void {
  if (!existsSync(file)) {
    total.failed++;
    return;
  }
  const { stats } = JSON.parse(readFileSync(file, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  };
  total.passed += stats.expected + stats.flaky;
  total.failed += stats.unexpected + (stats.unexpected === 0 && !stepOk ? 1 : 0);
  total.skipped += stats.skipped;
}

console.log(`Node ${process.version}`);
const servicesOk = run('services', 'bash', ['scripts/ensure-services.sh']);
if (!servicesOk) total.failed++;
if (!onlyNodeSuites) {
  check('typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
  check('lint', 'npx', ['biome', 'check', '.']);
  // The layering of ARCHITECTURE.md (.dependency-cruiser.cjs): no cycles, imports one way.
  check('layering', 'npx', [
    'depcruise',
    'src',
    '--config',
    '.dependency-cruiser.cjs',
    '--output-type',
    'err',
  ]);
}

const sqliteOk = run(
  'unit + api (SQLite)',
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}/vitest-sqlite.json`],
  {
    TEST_DB: 'sqlite',
  },
);
addVitest(`${out}/vitest-sqlite.json`, sqliteOk);

const pgOk = run(
  'api (PostgreSQL)',
  'npx',
  [
    'vitest',
    'run',
    '--project',
    'api',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}/vitest-postgres.json`,
  ],
  {
    TEST_DB: 'postgres',
  },
);
addVitest(`${out}/vitest-postgres.json`, pgOk);

if (!onlyNodeSuites && check('browser build', 'npx', ['vite', 'build', '--logLevel', 'warn'])) {
  const e2eOk = run('e2e (Chromium)', 'npx', ['playwright', 'test', '-c', 'tests/e2e/playwright.config.ts'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: `${out}/playwright.json`,
  });
  addPlaywright(`${out}/playwright.json`, e2eOk);
}

writeFileSync(`${out}/summary.json`, JSON.stringify({ node: process.version, ...total }));
const skipped = total.skipped ? `, ${total.skipped} skipped` : '';
console.log(`\ntests: ${total.passed} passed, ${total.failed} failed${skipped}`);
process.exit(total.failed === 0 ? 0 : 1);
