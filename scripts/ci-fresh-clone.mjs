#!/usr/bin/env node
/**
 * CI's fresh-clone check: clones this checkout's HEAD into a temporary folder, installs it with
 * npm 12 (which blocks dependency install scripts unless package.json's allowScripts approves
 * them), runs `npm start` there and asks the server for the landing page and the demo's data.
 * `--reuse-dist`: the checkout's dist/ (built from HEAD by `npm test` in the same CI run) is
 * copied into the clone, newer than its sources, so `npm start`'s stale-build check (tsx and
 * esbuild, installed by npm 12) finds nothing to rebuild; without it the clone builds its own.
 * Each check counts as one test in .test-output/fresh-clone/summary.json, with each step's
 * duration, which .ci/run adds up. Run it through node-runtime.mjs so it is on Node >= 22 (npm 12
 * needs it).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startServer, waitFor } from './server-probe.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, '.test-output', 'fresh-clone');
const reuseDist = process.argv.includes('--reuse-dist');
const tally = { passed: 0, failed: 0, skipped: 0 };
const steps = [];
const runStarted = Date.now();
let stepStarted = runStarted;

function record(what, ok, detail = '') {
  tally[ok ? 'passed' : 'failed']++;
  const seconds = Math.round((Date.now() - stepStarted) / 100) / 10;
  steps.push({ step: what, seconds, ok });
  stepStarted = Date.now();
  console.log(`fresh-clone: ${ok ? 'ok  ' : 'FAIL'} ${what} in ${seconds} s${detail ? ` (${detail})` : ''}`);
  return ok;
}

function sh(command, args, options = {}) {
  const started = Date.now();
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    ...options,
  });
  return { ...result, seconds: ((Date.now() - started) / 1000).toFixed(1) };
}

/** npm 12 from the registry into .runtime/npm-12, once. */
function npm12() {
  const prefix = path.join(root, '.runtime', 'npm-12');
  const cli = path.join(prefix, 'node_modules', 'npm', 'bin', 'npm-cli.js');
  if (!existsSync(cli)) {
    sh('npm', [
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      'npm@12',
    ]);
  }
  return cli;
}

const work = mkdtempSync(path.join(tmpdir(), 'fresh-clone-'));
const clone = path.join(work, 'app');
let server;
try {
  const cloned = sh('git', ['clone', '--quiet', root, clone]);
  if (record('git clone of HEAD', cloned.status === 0, cloned.stderr.trim())) {
    const cli = npm12();
    const version = sh(process.execPath, [cli, '--version']).stdout?.trim();
    const install = sh(process.execPath, [cli, 'install', '--no-audit', '--no-fund'], { cwd: clone });
    const blocked = /install scripts blocked/i.test(install.stderr);
    record(
      `npm ${version} install`,
      install.status === 0 && !blocked,
      install.status === 0
        ? `${install.seconds} s${blocked ? '; scripts were blocked' : ''}`
        : install.stderr.slice(-500),
    );

    const built = path.join(root, 'dist');
    const reused = reuseDist && existsSync(path.join(built, 'web', 'index.html'));
    if (reused) cpSync(built, path.join(clone, 'dist'), { recursive: true });
    const port = await freePort();
    const dataDir = path.join(work, 'data');
    server = startServer(process.execPath, [cli, 'start'], {
      cwd: clone,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    });
    const base = `http://127.0.0.1:${port}`;
    const up = await waitFor(`${base}/api/health`, 180);
    const how = reused ? "with the checkout's dist/" : 'building its own dist/';
    if (record(`npm start serves /api/health (${how})`, up, up ? '' : server.output().slice(-800))) {
      const landing = await fetch(`${base}/`);
      const html = await landing.text();
      record('landing page', landing.ok && html.includes('<div id="root">'), `status ${landing.status}`);
      const demoPage = await fetch(`${base}/demo-dashboard`);
      record('demo page', demoPage.ok, `status ${demoPage.status}`);
      const stats = await fetch(`${base}/api/demo/stats?dateRange=30d`);
      const body = stats.ok ? await stats.json() : {};
      record(
        'demo data',
        stats.ok && body.totalCalls > 0,
        `status ${stats.status}, ${body.totalCalls} calls`,
      );
    }
  }
} finally {
  server?.stop();
  rmSync(work, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const seconds = Math.round((Date.now() - runStarted) / 100) / 10;
  writeFileSync(
    path.join(out, 'summary.json'),
    JSON.stringify({ node: process.version, ...tally, seconds, steps }, null, 2),
  );
}
console.log(`fresh-clone: ${tally.passed} passed, ${tally.failed} failed`);
process.exit(tally.failed === 0 ? 0 : 1);
