/**
 * Long classification work (a preview, a re-classification) shares the one event loop with every
 * request of every client: it runs in slices of a few milliseconds and lets the loop
 * turn (setImmediate) between them, so /api/health and everyone's pages keep answering while it
 * runs. Measured on a monotonic clock, never the app's injectable `now`.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Longest stretch of work between two turns of the event loop. */
export const SLICE_MS = 8;

export interface WorkSlices {
  /** Lets the event loop turn when the current slice has run its time; cheap to call often. */
  pause(): Promise<void> | undefined;
  /** Milliseconds since the work started (pauses included). */
  elapsed(): number;
}

export function createWorkSlices(sliceMs = SLICE_MS): WorkSlices {
  const started = performance.now();
  let sliceStart = started;
  return {
    pause() {
      if (performance.now() - sliceStart < sliceMs) return undefined;
      return nextTurn().then(() => {
        sliceStart = performance.now();
      });
    },
    elapsed: () => performance.now() - started,
  };
}

/**
 * How many rows the next read should ask for so that one read holds about `bytes` of text:
 * a synchronous driver (better-sqlite3) reads a whole batch in one turn, and 2,000 calls of
 * 900 KB would be 1.8 GB read without a pause.
 */
export function nextBatchSize(
  previousRows: number,
  previousBytes: number,
  bytes: number,
  max: number,
): number {
  if (previousRows === 0 || previousBytes === 0) return max;
  const perRow = previousBytes / previousRows;
  return Math.max(1, Math.min(max, Math.floor(bytes / perRow)));
}

/** Runs stepwise work (a generator) to its end, letting the loop turn between steps when a slice is used up. */
export async function runSliced<T>(steps: Generator<unknown, T>, slices: WorkSlices): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await slices.pause();
  }
}
