#!/usr/bin/env node
/**
 * CI's fresh-clone check: clones this checkout's HEAD into a temporary folder, installs it with
 * npm 12 (which blocks dependency install scripts unless package.json's allowScripts approves
 * them), runs `npm start` there and asks the server for the landing page and the demo's data.
 * Each check counts as one test in .test-output/fresh-clone/summary.json, which .ci/run adds up.
 * Run it through node-runtime.mjs so it is on Node ≥ 22 (npm 12 needs it).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, '.test-output', 'fresh-clone');
const tally = { passed: 0, failed: 0, skipped: 0 };

function record(what, ok, detail = '') {
  tally[ok ? 'passed' : 'failed']++;
  console.log(`fresh-clone: ${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? ` (${detail})` : ''}`);
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

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url, seconds) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return true;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
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

    const port = await freePort();
    const dataDir = path.join(work, 'data');
    server = spawn(process.execPath, [cli, 'start'], {
      cwd: clone,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    server.stdout.on('data', (chunk) => (output += chunk));
    server.stderr.on('data', (chunk) => (output += chunk));
    const base = `http://127.0.0.1:${port}`;
    const up = await waitFor(`${base}/api/health`, 180);
    if (record('npm start serves /api/health', up, up ? '' : output.slice(-800))) {
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
  if (server?.pid) {
    try {
      process.kill(-server.pid, 'SIGTERM'); // npm, the runtime launcher and the server: the whole group
    } catch {}
  }
  rmSync(work, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'summary.json'), JSON.stringify({ node: process.version, ...tally }));
}
console.log(`fresh-clone: ${tally.passed} passed, ${tally.failed} failed`);
process.exit(tally.failed === 0 ? 0 : 1);
