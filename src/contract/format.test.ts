import { describe, expect, it } from 'vitest';
import {
  CHANGE_FROM_NOTHING,
  changeMeaning,
  formatCallCreated,
  formatChartDate,
  formatCount,
  formatDuration,
  formatMoney,
  formatPercentChange,
  isChangeFromNothing,
  isNonNegativeChange,
} from './format';

describe('formatDuration', () => {
  it('shows minutes and zero-padded seconds', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(5)).toBe('0:05');
    expect(formatDuration(65)).toBe('1:05');
    expect(formatDuration(600)).toBe('10:00');
    expect(formatDuration(3725)).toBe('62:05');
  });

  it('rounds fractions and treats bad input as zero', () => {
    expect(formatDuration(59.6)).toBe('1:00');
    expect(formatDuration(-3)).toBe('0:00');
    expect(formatDuration(Number.NaN)).toBe('0:00');
  });
});

describe('formatMoney', () => {
  it('has a dollar sign, separators and exactly two decimals', () => {
    expect(formatMoney(1234.5)).toBe('$1,234.50');
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(0.015)).toBe('$0.02');
    expect(formatMoney(12)).toBe('$12.00');
    expect(formatMoney(1_000_000)).toBe('$1,000,000.00');
  });
});

describe('formatPercentChange', () => {
  it('has one decimal and an explicit plus at zero or above', () => {
    expect(formatPercentChange(0)).toBe('+0.0%');
    expect(formatPercentChange(12.5)).toBe('+12.5%');
    expect(formatPercentChange(-3.2)).toBe('-3.2%');
    expect(formatPercentChange(100)).toBe('+100.0%');
    expect(formatPercentChange(33.333)).toBe('+33.3%');
  });

  it('never shows a negative zero, and the colour follows what is shown', () => {
    expect(formatPercentChange(-0.04)).toBe('+0.0%');
    expect(isNonNegativeChange(-0.04)).toBe(true);
    expect(formatPercentChange(-0.05)).toBe('-0.1%');
    expect(isNonNegativeChange(-0.05)).toBe(false);
    expect(isNonNegativeChange(0)).toBe(true);
    expect(isNonNegativeChange(7)).toBe(true);
    expect(isNonNegativeChange(-7)).toBe(false);
  });
});

describe('formatCount', () => {
  it('uses US thousands separators', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(12345)).toBe('12,345');
    expect(formatCount(1234567)).toBe('1,234,567');
  });
});

describe('formatChartDate', () => {
  it('shows short month and day of the calendar date', () => {
    expect(formatChartDate('2026-03-05')).toBe('Mar 5');
    expect(formatChartDate('2025-12-31')).toBe('Dec 31');
    expect(formatChartDate('2026-01-01')).toBe('Jan 1');
  });

  it('is not shifted by the time zone of the machine', () => {
    // Vitest runs in one process; the formatter must not depend on TZ, so check both sides of UTC.
    const original = process.env.TZ;
    try {
      for (const tz of ['America/Los_Angeles', 'Pacific/Kiritimati', 'UTC']) {
        process.env.TZ = tz;
        expect(formatChartDate('2026-03-05')).toBe('Mar 5');
      }
    } finally {
      process.env.TZ = original;
    }
  });

  it('returns unknown input unchanged', () => {
    expect(formatChartDate('yesterday')).toBe('yesterday');
  });
});

describe('formatCallCreated', () => {
  it('shows a short date with 12-hour time', () => {
    expect(formatCallCreated('2026-03-05T14:07:00Z', 'UTC')).toBe('3/5/2026, 2:07 PM');
    expect(formatCallCreated('2026-03-05T00:05:00Z', 'UTC')).toBe('3/5/2026, 12:05 AM');
    expect(formatCallCreated('2026-03-05T14:07:00Z', 'America/New_York')).toBe('3/5/2026, 9:07 AM');
  });

  it('returns unparseable input unchanged', () => {
    expect(formatCallCreated('not a date')).toBe('not a date');
  });
});

describe('changeMeaning', () => {
  it('colours by what the change means: a rise of a cost or of failures is bad news', () => {
    expect(changeMeaning(150, 'down')).toBe('bad');
    expect(changeMeaning(-100, 'down')).toBe('good');
    expect(changeMeaning(12.5, 'up')).toBe('good');
    expect(changeMeaning(-3.2, 'up')).toBe('bad');
    // Shown as +0.0%: no news either way.
    expect(changeMeaning(-0.04, 'down')).toBe('flat');
  });

  it('calls a rise from nothing "new", not a percentage against zero', () => {
    expect(isChangeFromNothing(3, 0)).toBe(true);
    expect(isChangeFromNothing(0, 0)).toBe(false);
    expect(isChangeFromNothing(3, 1)).toBe(false);
    expect(isChangeFromNothing(3, undefined)).toBe(false);
    expect(CHANGE_FROM_NOTHING).toBe('new');
  });
});
