import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { debounceBurst } from './use-live-calls';

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
