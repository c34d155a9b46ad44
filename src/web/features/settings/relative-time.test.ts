import { describe, expect, it } from 'vitest';
import { timeAgo } from './relative-time';

const NOW = Date.UTC(2026, 5, 10, 12, 0);
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe('timeAgo', () => {
  it.each([
    [0, 'Just now'],
    [59_000, 'Just now'],
    [60_000, '1 minute ago'],
    [5 * 60_000, '5 minutes ago'],
    [60 * 60_000, '1 hour ago'],
    [23 * 60 * 60_000, '23 hours ago'],
    [2 * 24 * 60 * 60_000, '2 days ago'],
    [-5_000, 'Just now'],
  ])('%i ms → %s', (ms, text) => {
    expect(timeAgo(ago(ms), NOW)).toBe(text);
  });

  it('returns what it cannot read as it came', () => {
    expect(timeAgo('not a time', NOW)).toBe('not a time');
  });
});
