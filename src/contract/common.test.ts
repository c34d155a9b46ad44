import { describe, expect, it } from 'vitest';
import { QueryDate } from './common';

describe('QueryDate', () => {
  it('answers epoch milliseconds for dates in 2000–2100', () => {
    expect(QueryDate.parse('2025-01-31')).toBe(Date.UTC(2025, 0, 31));
    expect(QueryDate.parse(' 2100-12-31T23:59:59.999Z ')).toBe(Date.UTC(2100, 11, 31, 23, 59, 59, 999));
  });

  it('refuses signed, six-digit and out-of-range years, and text that is no date', () => {
    for (const value of [
      '-271821-04-20',
      '-100000-01-01',
      '-10000-01-01',
      '+275760-09-13',
      '+002025-01-01',
    ]) {
      expect(QueryDate.safeParse(value).success, value).toBe(false);
    }
    expect(QueryDate.safeParse('1999-12-31T23:59:59.999Z').success).toBe(false);
    expect(QueryDate.safeParse('2101-01-01').success).toBe(false);
    expect(QueryDate.safeParse('yesterday').error?.issues[0].message).toMatch(/Invalid date/);
  });
});
