/**
 * `npm test`: the whole suite: the services check, then two lanes side by side: the build (browser
 * bundle and server, once: e2e and CI's later checks use it) and the browser e2e on two workers;
 * typecheck, lint, layering, unit + API tests on SQLite and API tests on PostgreSQL. The API
 * suites mostly wait (timers, fsync, child servers) while the browser mostly computes, so the two
 * lanes share a 2-core machine well. A step's output goes to .test-output/<name>/<step>.log and is
 * printed when it ends, so the lanes do not interleave. Every step runs even when an earlier one
 * failed, so one run shows everything; the last line is the summary CI reads, and the same counts
 * with each step's duration go to .test-output/<name>/summary.json for .ci/run to add up.
 *
 * `--unit-and-start`: the unit tests and a start of the server built before (dist/) answering
 * /api/health: what CI runs again on Node 22.
 * `--name NAME`: the output folder's name (default "full"), so two runs keep their reports apart.
 */
import { spawn } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, startServer, waitFor } from './server-probe.mjs';

const args = process.argv.slice(2);
const unitAndStart = args.includes('--unit-and-start');
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
const steps: { step: string; seconds: number; ok: boolean }[] = [];
/** Each failed test as "step: file › title: first line of the error", for CI's last lines. */
const failures: string[] = [];
const runStarted = Date.now();

function timed(title: string, started: number, ok: boolean): boolean {
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  steps.push({ step: title, seconds, ok });
  console.log(`=== ${title}: ${ok ? 'ok' : 'FAILED'} in ${seconds.toFixed(1)} s`);
  return ok;
}

/** A step's log file: its title in lower case, words joined by "-". */
function logFile(title: string): string {
  return path.join(
    out,
    `${title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')}.log`,
  );
}

/**
 * Runs one step with its output into its log file, then prints that log whole: steps of the two
 * lanes run at the same time, and their lines would interleave.
 */
function run(
  title: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<boolean> {
  console.log(`=== ${title}: started: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const log = logFile(title);
  const sink = createWriteStream(log);
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    child.stdout.pipe(sink, { end: false });
    child.stderr.pipe(sink, { end: false });
    child.on('error', (error) => sink.write(`${error.message}\n`));
    child.on('close', (status) => {
      sink.end(() => {
        console.log(`\n=== ${title}: ${command} ${args.join(' ')}`);
        process.stdout.write(readFileSync(log, 'utf8'));
        if (status !== 0) console.log(`=== ${title}: exit ${status}`);
        resolve(timed(title, started, status === 0));
      });
    });
  });
}

/** A check that is not a test runner (typecheck, lint, build) counts as one test. */
function count(ok: boolean): boolean {
  if (ok) total.passed++;
  else total.failed++;
  return ok;
}

async function check(title: string, command: string, args: string[]): Promise<boolean> {
  const ok = await run(title, command, args);
  if (!ok) failures.push(`${title}: failed`);
  return count(ok);
}

function firstLine(message: string | undefined): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the reporters' ANSI colours
  const plain = (message ?? '').replace(/\u001b\[[0-9;]*m/g, '').trim();
  return plain.split('\n')[0]?.slice(0, 200) ?? '';
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
    testResults: {
      name: string;
      message?: string;
      status: string;
      assertionResults: { status: string; fullName: string; failureMessages: string[] }[];
    }[];
  };
  for (const file of report.testResults) {
    const where = path.relative(process.cwd(), file.name);
    const failed = file.assertionResults.filter((t) => t.status === 'failed');
    for (const t of failed) failures.push(`${where} › ${t.fullName}: ${firstLine(t.failureMessages[0])}`);
    if (failed.length === 0 && file.status === 'failed')
      failures.push(`${where}: ${firstLine(file.message)}`);
  }
  total.passed += report.numPassedTests;
  total.failed += report.numFailedTests + (report.numFailedTests === 0 && !stepOk ? 1 : 0);
  total.skipped += report.numPendingTests + report.numTodoTests;
}

interface PlaywrightSuite {
  title: string;
  file: string;
  specs?: {
    title: string;
    file: string;
    ok: boolean;
    tests: { results: { error?: { message?: string } }[] }[];
  }[];
  suites?: PlaywrightSuite[];
}

function addPlaywright(file: string, stepOk: boolean): void {
  if (!existsSync(file)) {
    total.failed++;
    return;
  }
  const { stats, suites } = JSON.parse(readFileSync(file, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    suites: PlaywrightSuite[];
  };
  const walk = (suite: PlaywrightSuite, titles: string[]): void => {
    for (const spec of suite.specs ?? []) {
      if (spec.ok) continue;
      const error = spec.tests.flatMap((t) => t.results).find((r) => r.error)?.error?.message;
      failures.push(`${spec.file} › ${[...titles, spec.title].join(' › ')}: ${firstLine(error)}`);
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of suites) walk(suite, []);
  total.passed += stats.expected + stats.flaky;
  total.failed += stats.unexpected + (stats.unexpected === 0 && !stepOk ? 1 : 0);
  total.skipped += stats.skipped;
}

async function vitest(
  title: string,
  project: 'unit' | 'api' | null,
  testDb: 'sqlite' | 'postgres',
  report: string,
): Promise<void> {
  const ok = await run(
    title,
    'npx',
    [
      'vitest',
      'run',
      ...(project ? ['--project', project] : []),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}/${report}`,
    ],
    { TEST_DB: testDb },
  );
  addVitest(`${out}/${report}`, ok);
}

/** The built server (dist/server/main.js) started on this Node, on an empty data folder. */
async function startBuiltServer(): Promise<boolean> {
  const title = 'built server answers /api/health';
  console.log(`\n=== ${title}: node dist/server/main.js`);
  const started = Date.now();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cap-start-'));
  const port = await freePort();
  const server = startServer(process.execPath, ['dist/server/main.js'], {
    cwd: process.cwd(),
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  });
  try {
    const up =
      existsSync('dist/server/main.js') && (await waitFor(`http://127.0.0.1:${port}/api/health`, 90));
    if (!up) console.log(server.output().slice(-2000) || 'dist/server/main.js is missing: build first');
    return count(timed(title, started, up));
  } finally {
    server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`Node ${process.version}`);
if (unitAndStart) {
  await vitest('unit', 'unit', 'sqlite', 'vitest-unit.json');
  await startBuiltServer();
} else {
  if (!(await run('services', 'bash', ['scripts/ensure-services.sh']))) total.failed++;
  const browserLane = async () => {
    // Browser bundle and server together: e2e serves dist/web, CI starts dist/server on Node 22
    // and hands dist/ to the fresh clone, so nothing is built twice in one run.
    if (!(await check('build', 'npx', ['tsx', 'scripts/build.ts']))) return;
    const e2eOk = await run(
      'e2e (Chromium)',
      'npx',
      ['playwright', 'test', '-c', 'tests/e2e/playwright.config.ts'],
      { PLAYWRIGHT_JSON_OUTPUT_NAME: `${out}/playwright.json`, E2E_WORKERS: process.env.E2E_WORKERS ?? '2' },
    );
    addPlaywright(`${out}/playwright.json`, e2eOk);
  };
  const codeLane = async () => {
    await check('typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
    await check('lint', 'npx', ['biome', 'check', '.']);
    // The layering of ARCHITECTURE.md (.dependency-cruiser.cjs): no cycles, imports one way.
    await check('layering', 'npx', [
      'depcruise',
      'src',
      '--config',
      '.dependency-cruiser.cjs',
      '--output-type',
      'err',
    ]);
    // Every type assertion says why the compiler cannot know (AGENTS.md, TypeScript).
    await check('casts', 'npx', ['tsx', 'scripts/check-casts.ts', 'src']);
    await vitest('unit + api (SQLite)', null, 'sqlite', 'vitest-sqlite.json');
    await vitest('api (PostgreSQL)', 'api', 'postgres', 'vitest-postgres.json');
  };
  await Promise.all([browserLane(), codeLane()]);
}

const seconds = Math.round((Date.now() - runStarted) / 100) / 10;
writeFileSync(
  `${out}/summary.json`,
  JSON.stringify({ node: process.version, ...total, seconds, steps, failures }, null, 2),
);
console.log(`\n=== steps (${name}, Node ${process.version})`);
for (const s of steps)
  console.log(`${s.step.padEnd(36)} ${s.seconds.toFixed(1).padStart(8)} s  ${s.ok ? 'ok' : 'FAILED'}`);
console.log(`${'total'.padEnd(36)} ${seconds.toFixed(1).padStart(8)} s`);
if (failures.length) console.log(`\n=== failed (${name})\n${failures.join('\n')}`);
const skipped = total.skipped ? `, ${total.skipped} skipped` : '';
console.log(`\ntests: ${total.passed} passed, ${total.failed} failed${skipped}`);
process.exit(total.failed === 0 ? 0 : 1);
