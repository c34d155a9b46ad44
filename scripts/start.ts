/**
 * `npm start`: builds the browser bundle when it is missing or older than its sources, then runs
 * the server in this same process.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const builtIndex = 'dist/web/index.html';
const sources = Math.max(newestMtime('src/web'), newestMtime('src/contract'), statSync('index.html').mtimeMs);
if (!existsSync(builtIndex) || statSync(builtIndex).mtimeMs < sources) {
  console.log('Building the browser bundle…');
  const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('Could not build the browser bundle (see above).');
    process.exit(1);
  }
}

await import('../src/server/main');
