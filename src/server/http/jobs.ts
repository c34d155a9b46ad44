/**
 * The one place a repeating timer is started and stopped. A job is a name, an interval and a run
 * function (optionally run once at start, optionally only while this instance leads); `createJobs`
 * starts a set of them together and stops them together. The server's background jobs are listed
 * in `background-jobs.ts` and started by main.ts once the app is ready; a timer that lives with one
 * object (a sync's heartbeat, a live stream's keep-alive, the live hub's poll, the webhook counter
 * flush) starts and stops its own job here with `startJob`.
 *
 * Runs do not wait for each other, as plain intervals did: a job whose runs may overlap makes its
 * run idempotent or coalesces them itself (the outbox's claim loop does). Every timer is unref'd:
 * a job never keeps the process alive. Imports nothing from the features.
 */

export interface Job {
  /** Says which job failed, in logs. */
  name: string;
  intervalMs: number;
  /** A rejection goes to the `onError` the job was started with. */
  run: () => unknown;
  /** Runs once as soon as the job starts, then every interval. */
  runAtStart?: boolean;
  /**
   * Asked before each run; false skips it (a job that must run on one instance only, under a
   * lease). None of today's jobs needs one: each run is idempotent, so every instance runs them.
   */
  leader?: () => boolean | Promise<boolean>;
  /**
   * Other wake-ups the job answers between its ticks, started with it; returns how to stop them
   * (the outbox also looks soon after a message is queued here, and whenever a send ends).
   */
  alongside?: () => () => void;
}

export interface Jobs {
  /** Starts every job (a second call does nothing). */
  start(): void;
  /** Stops every job; a run under way finishes on its own. */
  stop(): void;
  readonly names: string[];
}

export type JobErrorHandler = (error: unknown, job: Job) => void;

export function createJobs(jobs: Job[], onError: JobErrorHandler): Jobs {
  let stops: (() => void)[] | null = null;

  function tick(job: Job): void {
    const attempt = async () => {
      if (job.leader && !(await job.leader())) return;
      await job.run();
    };
    attempt().catch((error: unknown) => onError(error, job));
  }

  return {
    names: jobs.map((j) => j.name),
    start() {
      if (stops) return;
      stops = jobs.map((job) => {
        const stopAlongside = job.alongside?.();
        if (job.runAtStart) tick(job);
        const timer = setInterval(() => tick(job), job.intervalMs);
        timer.unref();
        return () => {
          clearInterval(timer);
          stopAlongside?.();
        };
      });
    },
    stop() {
      for (const stop of stops ?? []) stop();
      stops = null;
    },
  };
}

/** Starts one job on its own; answers how to stop it. */
export function startJob(job: Job, onError: JobErrorHandler): () => void {
  const jobs = createJobs([job], onError);
  jobs.start();
  return () => jobs.stop();
}
