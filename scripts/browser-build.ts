/**
 * Builds the browser bundle into dist/web when it is missing or older than its sources; shared by
 * `npm start` and the benchmark so neither serves nor measures a stale bundle.
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

/** Returns false when the build failed (vite has already printed why). */
export function ensureBrowserBuild(): boolean {
  const builtIndex = 'dist/web/index.html';
  const sources = Math.max(
    newestMtime('src/web'),
    newestMtime('src/contract'),
    statSync('index.html').mtimeMs,
  );
  if (existsSync(builtIndex) && statSync(builtIndex).mtimeMs >= sources) return true;
  console.log('Building the browser bundle…');
  return spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' }).status === 0;
}
