import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACTIVITY_TTL_MS, debounceBurst, nextActivity } from './use-live-calls';

describe('debounceBurst', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('refreshes once after a burst of a hundred events, not a hundred times', () => {
    const fn = vi.fn();
    const burst = debounceBurst(fn, 400, 2000);
    for (let i = 0; i < 100; i++) {
      burst.push();
      vi.advanceTimersByTime(5);
    }
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(400);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('does not let a steady stream of events delay the refresh past the longest wait', () => {
    const fn = vi.fn();
    const burst = debounceBurst(fn, 400, 2000);
    for (let t = 0; t < 2100; t += 100) {
      burst.push();
      vi.advanceTimersByTime(100);
    }
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('forgets pending events when cancelled', () => {
    const fn = vi.fn();
    const burst = debounceBurst(fn, 400, 2000);
    burst.push();
    burst.cancel();
    vi.advanceTimersByTime(5000);
    expect(fn).not.toHaveBeenCalled();
  });
});

describe('nextActivity', () => {
  it('starts a call at its first activity, keeps when it started, and ends it with its own event', () => {
    let list = nextActivity([], { kind: 'activity', providerCallId: 'c1' }, 1000);
    list = nextActivity(list, { kind: 'activity', providerCallId: 'c1' }, 5000);
    expect(list).toEqual([{ providerCallId: 'c1', since: 1000, last: 5000 }]);
    list = nextActivity(list, { kind: 'activity', providerCallId: 'c2' }, 6000);
    expect(list.map((a) => a.providerCallId)).toEqual(['c1', 'c2']);
    list = nextActivity(list, { kind: 'call', providerCallId: 'c1' }, 7000);
    expect(list.map((a) => a.providerCallId)).toEqual(['c2']);
  });

  it('drops calls whose activity stopped long ago', () => {
    const list = nextActivity([], { kind: 'activity', providerCallId: 'old' }, 0);
    expect(nextActivity(list, { kind: 'activity', providerCallId: 'new' }, ACTIVITY_TTL_MS + 1)).toEqual([
      { providerCallId: 'new', since: ACTIVITY_TTL_MS + 1, last: ACTIVITY_TTL_MS + 1 },
    ]);
  });
});
