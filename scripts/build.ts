/**
 * `npm run build`: the browser bundle (Vite → dist/web) and the server (esbuild → dist/server, plain
 * JavaScript that imports only runtime dependencies, so production runs no TypeScript compiler).
 * `--if-stale` rebuilds only the parts older than their sources; `npm start` and the benchmark use
 * it so neither serves nor measures a stale bundle.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

function newestMtime(...paths: string[]): number {
  let newest = 0;
  for (const entry of paths) {
    const stat = statSync(entry);
    newest = Math.max(
      newest,
      stat.isDirectory()
        ? newestMtime(...readdirSync(entry).map((name) => path.join(entry, name)))
        : stat.mtimeMs,
    );
  }
  return newest;
}

function isFresh(output: string, ...sources: string[]): boolean {
  return existsSync(output) && statSync(output).mtimeMs >= newestMtime(...sources);
}

/** Returns false when the build failed (vite has already printed why). */
export function buildBrowser(ifStale = false): boolean {
  if (ifStale && isFresh('dist/web/index.html', 'src/web', 'src/contract', 'index.html')) return true;
  console.log('Building the browser bundle…');
  return spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' }).status === 0;
}

export async function buildServer(ifStale = false): Promise<boolean> {
  const outdir = 'dist/server';
  if (ifStale && isFresh(`${outdir}/main.js`, 'src/server', 'src/contract', 'package.json')) return true;
  console.log('Building the server…');
  try {
    await build({
      entryPoints: { main: 'src/server/main.ts', cli: 'src/server/cli.ts' },
      outdir,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      // Dependencies stay imports of node_modules: only what package.json lists under dependencies.
      packages: 'external',
      sourcemap: true,
      logLevel: 'warning',
    });
  } catch {
    return false; // esbuild has printed the errors
  }
  // Files the server reads beside its own module (new URL('./…', import.meta.url)).
  mkdirSync(outdir, { recursive: true });
  copyFileSync('src/server/demo/demo-recording.mp3', `${outdir}/demo-recording.mp3`);
  return true;
}

/** Both parts, rebuilding only what is older than its sources. */
export async function ensureBuilt(): Promise<boolean> {
  return buildBrowser(true) && (await buildServer(true));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const ifStale = process.argv.includes('--if-stale');
  const ok = buildBrowser(ifStale) && (await buildServer(ifStale));
  process.exit(ok ? 0 : 1);
}
