/**
 * The jobs runner, and the house rule it stands for (AGENTS.md): every repeating timer starts and
 * stops here, and a pause is node's `setTimeout` from node:timers/promises, never written by hand.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createJobs, type Job, startJob } from './jobs';

const SERVER = path.resolve(import.meta.dirname, '..');
const RUNNER = path.join(SERVER, 'http', 'jobs.ts');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return file.endsWith('.ts') && !file.endsWith('.test.ts') ? [file] : [];
  });
}

/** Source files (relative to src/server) whose text matches `pattern`. */
function filesMatching(pattern: RegExp, except: string[] = []): string[] {
  return sourceFiles(SERVER)
    .filter((file) => !except.includes(file))
    .filter((file) => pattern.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(SERVER, file));
}

describe('jobs', () => {
  it('runs each job every interval, at start when asked, and not after stop', async () => {
    const runs: string[] = [];
    const jobs = createJobs(
      [
        { name: 'eager', intervalMs: 20, runAtStart: true, run: () => runs.push('eager') },
        { name: 'lazy', intervalMs: 20, run: () => runs.push('lazy') },
      ],
      () => {},
    );
    expect(jobs.names).toEqual(['eager', 'lazy']);
    jobs.start();
    jobs.start(); // a second start does nothing
    expect(runs).toEqual(['eager']);
    await sleep(50);
    jobs.stop();
    const counted = runs.length;
    expect(runs.filter((r) => r === 'lazy').length).toBeGreaterThanOrEqual(1);
    expect(runs.filter((r) => r === 'eager').length).toBe(runs.filter((r) => r === 'lazy').length + 1);
    await sleep(50);
    expect(runs.length).toBe(counted);
  });

  it('hands a failed run to onError with its job, and skips runs while not the leader', async () => {
    const failures: string[] = [];
    let leading = false;
    let ran = 0;
    const failing: Job = {
      name: 'failing',
      intervalMs: 1000,
      runAtStart: true,
      run: async () => {
        throw new Error('boom');
      },
    };
    const led: Job = {
      name: 'led',
      intervalMs: 1000,
      runAtStart: true,
      leader: () => leading,
      run: () => ran++,
    };
    const stop = startJob(failing, (error, job) => failures.push(`${job.name}: ${(error as Error).message}`));
    const stopLed = startJob(led, () => {});
    await sleep(5);
    stop();
    stopLed();
    expect(failures).toEqual(['failing: boom']);
    expect(ran).toBe(0);
    leading = true;
    const again = startJob(led, () => {});
    await sleep(5);
    again();
    expect(ran).toBe(1);
  });

  it('starts what runs alongside a job with it, and stops it with it', () => {
    const events: string[] = [];
    const jobs = createJobs(
      [
        {
          name: 'with-wake-ups',
          intervalMs: 1000,
          run: () => {},
          alongside: () => {
            events.push('listening');
            return () => events.push('stopped');
          },
        },
      ],
      () => {},
    );
    jobs.start();
    jobs.stop();
    expect(events).toEqual(['listening', 'stopped']);
  });

  it('are the only place src/server starts a repeating timer', () => {
    expect(filesMatching(/\bsetInterval\s*\(/, [RUNNER])).toEqual([]);
  });

  it('leave pauses to node:timers/promises: no hand-written sleep in src/server', () => {
    expect(filesMatching(/new Promise[^;]*\bsetTimeout\(\s*(r|res|resolve)\b/)).toEqual([]);
  });
});
