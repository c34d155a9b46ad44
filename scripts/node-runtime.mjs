#!/usr/bin/env node
/**
 * Runs a command on a supported Node.js (22 or newer).
 *
 *   node scripts/node-runtime.mjs <command> [args…]             Node ≥ 22: runs it as it is;
 *                                                                older: on Node 24 from the npm registry
 *   node scripts/node-runtime.mjs --node 22 <command> [args…]   on exactly that major (CI's Node 22 run)
 *
 * The npm scripts go through this file so that `npm start` and `npm test` work on a machine whose
 * own Node is older (Node 20 is end of life): the official binary comes from the registry's
 * `node-<platform>-<arch>` package into .runtime/ (ignored by git), once, and its bin folder is put
 * first on PATH so everything the command starts (`npx`, tsx, vitest workers) runs on it too.
 * Users who already have Node 22 or 24 are untouched. Plain JavaScript on purpose: it must run on
 * the old Node it replaces.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MINIMUM_MAJOR = 22;
const BOOTSTRAP_MAJOR = 24;
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function fail(message) {
  console.error(message);
  process.exit(1);
}

/** The folder holding `bin/node` for that major, installing it from the npm registry first if needed. */
function installedNode(major) {
  const pkg = `node-${process.platform}-${process.arch}`;
  const prefix = path.join(projectRoot, '.runtime', `node-${major}`);
  const home = path.join(prefix, 'node_modules', pkg);
  if (existsSync(path.join(home, 'bin', 'node'))) return home;
  console.log(`node-runtime: installing Node ${major} (${pkg}) from the npm registry into .runtime/ (once)`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(
    npm,
    [
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `${pkg}@${major}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (result.status !== 0 || !existsSync(path.join(home, 'bin', 'node'))) {
    fail(
      `This project needs Node.js ${MINIMUM_MAJOR} or newer (this is ${process.version}), and no Node ${major} ` +
        `binary for ${process.platform}-${process.arch} could be installed from the npm registry: install Node ${BOOTSTRAP_MAJOR} and run again.`,
    );
  }
  return home;
}

function versionOf(nodeBinary) {
  return spawnSync(nodeBinary, ['--version'], { encoding: 'utf8' }).stdout.trim();
}

function run(command, args, binDir) {
  const env = { ...process.env };
  if (binDir) {
    env.PATH = `${binDir}${path.delimiter}${env.PATH ?? ''}`;
    // npm and npx started below must run on the same Node, not the one that started us.
    env.npm_node_execpath = path.join(binDir, 'node');
    env.NODE = path.join(binDir, 'node');
  }
  const child = spawn(command, args, { stdio: 'inherit', env, shell: process.platform === 'win32' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => fail(`node-runtime: could not run ${command}: ${error.message}`));
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    process.exit(code ?? 1);
  });
}

let argv = process.argv.slice(2);
let wanted;
if (argv[0] === '--node') {
  wanted = Number(argv[1]);
  argv = argv.slice(2);
  if (!Number.isInteger(wanted)) fail('node-runtime: --node takes a major version, e.g. --node 22');
}
const [command, ...args] = argv;
if (!command) fail('usage: node scripts/node-runtime.mjs [--node MAJOR] <command> [args…]');

const runningMajor = Number(process.versions.node.split('.')[0]);
if (wanted === undefined && runningMajor >= MINIMUM_MAJOR) {
  run(command, args);
} else if (wanted === runningMajor) {
  run(command, args);
} else {
  const major = wanted ?? BOOTSTRAP_MAJOR;
  const binDir = path.join(installedNode(major), 'bin');
  const why = wanted ? 'as asked' : `this machine's ${process.version} is older than ${MINIMUM_MAJOR}`;
  console.log(
    `node-runtime: running on Node ${versionOf(path.join(binDir, 'node'))} from .runtime/ (${why})`,
  );
  run(command, args, binDir);
}
