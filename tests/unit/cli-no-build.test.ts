/**
 * `npm run backup` (and migrate, restore, cli) runs the CLI without building the app first: the
 * script is run in a copy of the project whose tsx only writes down what it was asked to run.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const START = path.resolve(import.meta.dirname, '../../scripts/start.mjs');
let root: string;

function fakeProject() {
  root = mkdtempSync(path.join(tmpdir(), 'cap-start-'));
  mkdirSync(path.join(root, 'scripts'));
  mkdirSync(path.join(root, 'src', 'server'), { recursive: true });
  mkdirSync(path.join(root, 'node_modules', '.bin'), { recursive: true });
  copyFileSync(START, path.join(root, 'scripts', 'start.mjs'));
  writeFileSync(path.join(root, 'scripts', 'build.ts'), '');
  writeFileSync(path.join(root, 'src', 'server', 'cli.ts'), '');
  const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
  writeFileSync(tsx, `#!/bin/sh\necho "$@" >> "${path.join(root, 'ran.txt')}"\n`);
  chmodSync(tsx, 0o755);
}

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('npm run backup', () => {
  it('runs the CLI from its source and never builds the app first', () => {
    fakeProject();
    const run = spawnSync(process.execPath, [path.join(root, 'scripts', 'start.mjs'), 'cli', 'backup'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(run.stderr).not.toContain('not built');
    expect(run.status).toBe(0);
    const ran = readFileSync(path.join(root, 'ran.txt'), 'utf8').trim().split('\n');
    expect(ran).toEqual([`${path.join(root, 'src', 'server', 'cli.ts')} backup`]);
  });
});
