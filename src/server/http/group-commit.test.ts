import { describe, expect, it } from 'vitest';
import { createGroupCommit } from './group-commit';

/** A writer that records each batch it was given and answers each item doubled. */
function recordingWriter(options: { failOn?: number; delayMs?: number } = {}) {
  const batches: number[][] = [];
  const write = async (items: number[]) => {
    batches.push(items);
    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
    if (options.failOn !== undefined && items.includes(options.failOn))
      throw new Error(`bad ${options.failOn}`);
    return items.map((n) => n * 2);
  };
  return { batches, write };
}

describe('group commit', () => {
  it('writes what arrives together in one batch and answers each caller its own result', async () => {
    const { batches, write } = recordingWriter();
    const group = createGroupCommit(write);
    const results = await Promise.all([1, 2, 3].map((n) => group.submit(n)));
    expect(results).toEqual([2, 4, 6]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('collects what arrives during a write into the next batch', async () => {
    const { batches, write } = recordingWriter({ delayMs: 20 });
    const group = createGroupCommit(write);
    const first = group.submit(1);
    await new Promise((r) => setTimeout(r, 5)); // the first write is now in progress
    const later = Promise.all([group.submit(2), group.submit(3)]);
    expect(await first).toBe(2);
    expect(await later).toEqual([4, 6]);
    expect(batches).toEqual([[1], [2, 3]]);
  });

  it('never writes more than the batch limit at once', async () => {
    const { batches, write } = recordingWriter();
    const group = createGroupCommit(write, { maxBatch: 2 });
    await Promise.all([1, 2, 3, 4, 5].map((n) => group.submit(n)));
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('when a batch fails, retries its items alone so only the bad one fails', async () => {
    const { batches, write } = recordingWriter({ failOn: 2 });
    const group = createGroupCommit(write);
    const settled = await Promise.allSettled([1, 2, 3].map((n) => group.submit(n)));
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual([
      2,
      'bad 2',
      6,
    ]);
    expect(batches).toEqual([[1, 2, 3], [1], [2], [3]]);
  });

  it('keeps working after a failure', async () => {
    const { write } = recordingWriter({ failOn: 7 });
    const group = createGroupCommit(write);
    await expect(group.submit(7)).rejects.toThrow('bad 7');
    expect(await group.submit(8)).toBe(16);
  });

  it('with concurrency, starts another write while one is in flight', async () => {
    // The first write is held open until a second one has started: no timing to lose under load.
    let inFlight = 0;
    let most = 0;
    let startFirst = () => {};
    let startSecond = () => {};
    const firstStarted = new Promise<void>((resolve) => (startFirst = resolve));
    const secondStarted = new Promise<void>((resolve) => (startSecond = resolve));
    const group = createGroupCommit(
      async (items: number[]) => {
        inFlight++;
        most = Math.max(most, inFlight);
        if (items.includes(1)) {
          startFirst();
          await secondStarted;
        } else startSecond();
        inFlight--;
        return items;
      },
      { concurrency: 2 },
    );
    const first = group.submit(1);
    await firstStarted;
    expect(await Promise.all([first, group.submit(2), group.submit(3)])).toEqual([1, 2, 3]);
    expect(most).toBe(2);
  });

  it('tries a lone item again when its failure is transient, and only then', async () => {
    let failures = 2;
    const tried: number[] = [];
    const write = async (items: number[]) => {
      tried.push(...items);
      if (items.includes(7) && failures-- > 0) throw Object.assign(new Error('deadlock'), { code: '40P01' });
      if (items.includes(9)) throw new Error('bad 9');
      return items.map((n) => n * 2);
    };
    const group = createGroupCommit(write, { isTransient: (e) => (e as { code?: string }).code === '40P01' });
    expect(await group.submit(7)).toBe(14);
    expect(tried.filter((n) => n === 7)).toHaveLength(3);
    await expect(group.submit(9)).rejects.toThrow('bad 9');
    expect(tried.filter((n) => n === 9)).toHaveLength(1);
  });
});
