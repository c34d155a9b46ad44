/**
 * Scheduled backups: BACKUP_SCHEDULE in cron syntax (server time), BACKUP_KEEP kept.
 * Every instance runs this job; the scheduled time is claimed in the database (backup-state.ts)
 * so exactly one instance takes each backup, never beside another (a lease while it runs), and a
 * time missed while every instance was down is taken once at the next start. The backup itself runs as `cli backup` in a child process: the
 * same command an operator runs, and none of its work (a SQLite copy, the row counts) holds this
 * process's event loop. The first start only records the latest scheduled time: the first
 * backup is the next one.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Cron } from 'croner';
import type { AppDeps } from '../context';
import type { Job } from '../http/jobs';
import { claimedSlot, claimSlot, releaseSlotLease } from './backup-state';

/** How often the job looks at the clock: a backup starts within this of its time. */
export const BACKUP_CHECK_MS = 30_000;
/** The longest a scheduled backup holds the others back if its process dies meanwhile. */
export const BACKUP_LEASE_MS = 24 * 60 * 60 * 1000;

export type RunBackup = () => Promise<string>;

export function backupJob(
  deps: Pick<AppDeps, 'db' | 'now' | 'config'>,
  log: { info(msg: string): void; error(obj: object, msg: string): void },
  runBackup: RunBackup = spawnBackupCommand,
): Job | null {
  const schedule = deps.config.operations.backupSchedule;
  if (!schedule) return null;
  const cron = new Cron(schedule, { paused: true });
  let running = false;
  /** This job's name in the backup's lease. */
  const owner = randomUUID();
  return {
    name: 'backup',
    intervalMs: BACKUP_CHECK_MS,
    runAtStart: true,
    async run() {
      if (running) return;
      const slot = cron.previousRuns(1, new Date(deps.now()))[0]?.getTime();
      if (slot === undefined) return;
      const claimed = await claimedSlot(deps.db);
      if (claimed !== null && slot <= claimed) return;
      // The first start only records the schedule (no lease): from the next scheduled time on.
      const lease = claimed === null ? 0 : BACKUP_LEASE_MS;
      // another instance took it, or one runs
      if (!(await claimSlot(deps.db, slot, deps.now(), lease, owner))) return;
      if (claimed === null) {
        await releaseSlotLease(deps.db, owner);
        return;
      }
      running = true;
      try {
        log.info(`scheduled backup (${schedule}): ${(await runBackup()).trim().replace(/\s*\n\s*/g, ' ')}`);
      } catch (error) {
        log.error({ err: error }, `scheduled backup (${schedule}) failed`);
      } finally {
        running = false;
        await releaseSlotLease(deps.db, owner).catch((error: unknown) =>
          log.error({ err: error }, 'scheduled backup: its lease was not given back (it ends by itself)'),
        );
      }
    },
  };
}

/** `cli backup` as a child of this process. */
export function spawnBackupCommand(): Promise<string> {
  const here = fileURLToPath(import.meta.url);
  // Bundled, this code is in dist/server/main.js beside cli.js; from source (tsx), in operations/.
  const fromSource = here.endsWith('.ts');
  const entry = fromSource
    ? path.join(path.dirname(here), '..', 'cli.ts')
    : path.join(path.dirname(here), 'cli.js');
  const args = [...(fromSource ? ['--import', 'tsx'] : []), entry, 'backup'];
  return new Promise((resolve, reject) => {
    // It inherits this process's environment: the same configuration, read by its own config.ts.
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += String(d);
    });
    child.stderr.on('data', (d) => {
      out += String(d);
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(out.trim() || `exit code ${code}`)),
    );
  });
}
