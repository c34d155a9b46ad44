/**
 * Upgrades and scheduled backups.
 * - `npm run migrate -- --check` names what is pending without applying it (exit 1), and three
 *   `npm run migrate` started together on a fresh database apply each migration exactly once.
 * - Scheduled backups: two instances on one database run the job at the same moment and exactly
 *   one takes the backup; the first start only records the schedule; a time missed while down
 *   is taken once at the next start; a backup still running holds the next one back until it
 *   ends; BACKUP_KEEP keeps the newest.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/server/db/connect';
import { KNOWN_MIGRATIONS } from '../../src/server/db/migrate';
import { prune } from '../../src/server/operations/backup';
import { backupJob } from '../../src/server/operations/backup-job';
import { createScratchDatabase } from '../helpers/scratch-database';
import { createTestApp, TEST_DATABASE_URL, TEST_DB, type TestApp } from '../helpers/test-app';

const ROOT = path.resolve(__dirname, '../..');

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, APP_SECRET: 'migrate-secret-0123456789', LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += String(d);
    });
    child.stderr.on('data', (d) => {
      out += String(d);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

describe(`migrations under a lock (${TEST_DB})`, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cap-migrate-'));
  let env: Record<string, string> = { DATA_DIR: dataDir };
  let drop = async () => {};

  beforeAll(async () => {
    if (TEST_DB === 'postgres') {
      const scratch = await createScratchDatabase(TEST_DATABASE_URL);
      env = { ...env, DATABASE_URL: scratch.url };
      drop = scratch.drop;
    }
  });
  afterAll(async () => {
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('says what is pending without applying it, and applies each once when three start together', async () => {
    const check = await cli(['migrate', '--check'], env);
    expect(check.code).toBe(1);
    expect(check.out.trim()).toBe(
      `${KNOWN_MIGRATIONS.length} pending (not applied): ${KNOWN_MIGRATIONS.join(', ')}`,
    );

    const runs = await Promise.all([cli(['migrate'], env), cli(['migrate'], env), cli(['migrate'], env)]);
    for (const run of runs) expect(run.code, run.out).toBe(0);
    // One of them applied everything; the others found nothing left.
    const applied = runs.filter((r) => r.out.startsWith(`Applied ${KNOWN_MIGRATIONS.length}:`));
    expect(applied).toHaveLength(1);
    expect(runs.filter((r) => r.out.trim() === 'Up to date: no migration was pending.')).toHaveLength(2);

    const database = openDb({ databaseUrl: env.DATABASE_URL ?? null, dataDir, poolSize: 1 });
    try {
      const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
        database.db,
      );
      expect(rows.map((r) => r.name)).toEqual([...KNOWN_MIGRATIONS]);
    } finally {
      await database.close();
    }
    const after = await cli(['migrate', '--check'], env);
    expect(after.code).toBe(0);
    expect(after.out.trim()).toBe(`Up to date: ${KNOWN_MIGRATIONS.length} migrations applied, none pending.`);
  }, 120_000);
});

describe(`scheduled backups (${TEST_DB})`, () => {
  let t: TestApp;
  // The schedule is in the server's time zone: the clock is set in local time.
  const local = (day: number, hour: number, minute: number) => new Date(2031, 2, day, hour, minute).getTime();
  let clock = local(10, 2, 59);
  const backups: string[] = [];
  const log = { info: (_msg: string) => {}, error: () => {} };

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock, env: { BACKUP_SCHEDULE: '0 3 * * *' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('takes each scheduled backup on exactly one of two instances, and a missed one once at the next start', async () => {
    const second = t.reopenDb();
    try {
      const run = (name: string) => async () => {
        backups.push(`${name}@${clock}`);
        return 'Backup written';
      };
      const a = backupJob(t.deps, log, run('a'));
      const b = backupJob({ ...t.deps, db: second.db }, log, run('b'));
      if (!a || !b) throw new Error('BACKUP_SCHEDULE is set: the job exists');
      const both = () => Promise.all([a.run(), b.run()]);

      await both(); // the first start: the schedule is recorded, nothing is backed up
      expect(backups).toEqual([]);
      clock = local(10, 3, 0) + 20_000;
      await both();
      expect(backups).toHaveLength(1);
      expect(backups[0]).toMatch(new RegExp(`@${local(10, 3, 0) + 20_000}$`));
      await both(); // the same scheduled time: nothing more
      clock = local(10, 15, 0);
      await both();
      expect(backups).toHaveLength(1);
      // Down from before 03:00 on the 11th until the 13th: one backup at the start, not three.
      clock = local(13, 9, 30);
      await both();
      expect(backups).toHaveLength(2);
      await both();
      expect(backups).toHaveLength(2);

      // A backup still running at the next scheduled time holds that one back until it ends,
      // on either instance; then it is taken once.
      let finish = () => {};
      const slow = backupJob(t.deps, log, async () => {
        backups.push(`slow@${clock}`);
        await new Promise<void>((resolve) => {
          finish = resolve;
        });
        return 'Backup written';
      });
      if (!slow) throw new Error('BACKUP_SCHEDULE is set: the job exists');
      clock = local(14, 3, 0) + 10_000;
      const running = slow.run();
      while (backups.length < 3) await new Promise((r) => setTimeout(r, 5));
      clock = local(15, 3, 0) + 5_000; // the next day's time, the slow one still running
      await both();
      expect(backups).toHaveLength(3);
      finish();
      await running;
      await both();
      expect(backups).toHaveLength(4);
      expect(backups[3]).toMatch(/^[ab]@/);
    } finally {
      await second.close();
    }
  });

  it('keeps the newest BACKUP_KEEP backups, with their manifests, and nothing else is touched', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cap-keep-'));
    try {
      const names = ['20310101', '20310102', '20310103', '20310104'].map(
        (day) => `callanalytics-${day}-030000-000Z.${TEST_DB}.backup`,
      );
      for (const name of names) {
        writeFileSync(path.join(dir, name), 'x');
        writeFileSync(path.join(dir, `${name}.json`), '{}');
      }
      writeFileSync(path.join(dir, 'keep-me.txt'), 'not ours');
      expect(await prune(dir, 2)).toEqual(names.slice(0, 2));
      expect(readdirSync(dir).sort()).toEqual(
        ['keep-me.txt', names[2], `${names[2]}.json`, names[3], `${names[3]}.json`].sort(),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
