#!/usr/bin/env node
/**
 * `npm start` (and `npm run cli`): runs the compiled server, dist/server/main.js (or cli.js).
 * Where the dev dependencies are installed `npm start` first rebuilds whatever is older than its
 * sources (`scripts/build.ts --if-stale`); a production install without them (`npm ci && npm run
 * build && npm prune --omit=dev`) runs the built files as they are. Plain JavaScript: production
 * needs no TypeScript tooling.
 *
 * The CLI (`npm run cli|migrate|backup|restore`) never builds: a backup must not wait on a bundle it
 * does not use. With the dev dependencies it runs src/server/cli.ts through tsx; without them, the
 * built dist/server/cli.js.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = process.argv[2] === 'cli' ? 'cli' : 'main';
if (entry === 'cli') process.argv.splice(2, 1); // the CLI reads its own arguments after ours

const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const cliSource = path.join(root, 'src', 'server', 'cli.ts');
if (entry === 'cli' && existsSync(tsx) && existsSync(cliSource)) {
  const ran = spawnSync(tsx, [cliSource, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(ran.status ?? 1);
}
if (entry === 'main' && existsSync(tsx)) {
  const built = spawnSync(tsx, ['scripts/build.ts', '--if-stale'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) {
    console.error('Could not build the app (see above).');
    process.exit(1);
  }
}
const compiled = path.join(root, 'dist', 'server', `${entry}.js`);
if (
  !existsSync(compiled) ||
  (entry === 'main' && !existsSync(path.join(root, 'dist', 'web', 'index.html')))
) {
  console.error('The app is not built: run `npm install && npm run build` (needs the dev dependencies).');
  process.exit(1);
}
await import(pathToFileURL(compiled).href);
