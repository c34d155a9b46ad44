import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb } from './connect';
import { migrateToLatest } from './migrate';

describe('the SQLite file', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('and its WAL are readable by the owner only, whatever the umask', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'cap-db-'));
    dirs.push(root);
    const dataDir = path.join(root, 'data');
    const previous = process.umask(0o022);
    try {
      const { db, close } = openDb({ databaseUrl: null, dataDir });
      await migrateToLatest(db);
      const mode = (file: string) => statSync(path.join(dataDir, file)).mode & 0o777;
      expect(mode('app.sqlite')).toBe(0o600);
      expect(mode('app.sqlite-wal')).toBe(0o600);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      await close();
    } finally {
      process.umask(previous);
    }
  });
});
