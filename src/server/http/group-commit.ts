/**
 * Group commit: many small writes that arrive together are written in one transaction, and each
 * caller still learns its own result only once that transaction is durable. There is no timer:
 * the first item is written on the next turn of the event loop, and whatever arrives while a
 * write is in progress forms the next batch, so batches grow with the load and a lone request
 * waits for nobody.
 *
 * If a batch fails, its items are retried one at a time, so one bad item (or a deadlock between
 * two batches) fails only the caller it belongs to. A lone item that fails for a reason worth
 * trying again (`isTransient`: a deadlock the database broke, a serialization failure) is tried a
 * few more times after a short, jittered pause before its caller hears of it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
export type BatchWriter<T, R> = (items: T[]) => Promise<R[]>;

export interface GroupCommit<T, R> {
  submit(item: T): Promise<R>;
}

interface Pending<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export interface GroupCommitOptions {
  /** Most items in one write. */
  maxBatch?: number;
  /**
   * Writes in flight at once. 1 suits SQLite (one writer anyway); a server database gains from a
   * few, since each write spends most of its time waiting on round trips.
   */
  concurrency?: number;
  /** Errors worth one more try of the same item (the transaction was rolled back whole). */
  isTransient?: (error: unknown) => boolean;
  /** Tries of a lone item, the first included. */
  attempts?: number;
}

export function createGroupCommit<T, R>(
  write: BatchWriter<T, R>,
  { maxBatch = 200, concurrency = 1, isTransient = () => false, attempts = 4 }: GroupCommitOptions = {},
): GroupCommit<T, R> {
  let queue: Pending<T, R>[] = [];
  let writers = 0;

  async function writeOne(p: Pending<T, R>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const [result] = await write([p.item]);
        p.resolve(result);
        return;
      } catch (error) {
        if (attempt >= attempts || !isTransient(error)) {
          p.reject(error);
          return;
        }
        await sleep(5 * attempt + Math.random() * 20);
      }
    }
  }

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      if (batch.length === 1) {
        await writeOne(batch[0]);
        continue;
      }
      let results: R[] | null = null;
      try {
        results = await write(batch.map((p) => p.item));
      } catch {
        for (const p of batch) await writeOne(p);
      }
      if (results) {
        for (const [i, p] of batch.entries()) p.resolve(results[i]);
      }
    }
    writers--;
  }

  return {
    submit(item) {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (writers < concurrency) {
          writers++;
          setImmediate(drain);
        }
      });
    },
  };
}
