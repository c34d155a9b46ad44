/**
 * `npm start`: builds the browser bundle when it is missing or older than its sources, then runs
 * the server in this same process.
 */
import { ensureBrowserBuild } from './browser-build';

if (!ensureBrowserBuild()) {
  console.error('Could not build the browser bundle (see above).');
  process.exit(1);
}

await import('../src/server/main');
