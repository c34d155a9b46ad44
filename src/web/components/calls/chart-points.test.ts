import { describe, expect, it } from 'vitest';
import { hasChartData, toChartPoints } from './chart-points';

describe('chart points', () => {
  it('labels each day as short month and day, without shifting the calendar date', () => {
    expect(
      toChartPoints([
        { date: '2025-03-05', count: 4 },
        { date: '2025-12-31', count: 0 },
        { date: '2026-01-01', count: 12 },
      ]),
    ).toEqual([
      { date: '2025-03-05', label: 'Mar 5', count: 4 },
      { date: '2025-12-31', label: 'Dec 31', count: 0 },
      { date: '2026-01-01', label: 'Jan 1', count: 12 },
    ]);
  });

  it('treats a missing, empty or all-zero list as nothing to draw', () => {
    expect(toChartPoints(undefined)).toEqual([]);
    expect(toChartPoints(null)).toEqual([]);
    expect(hasChartData([])).toBe(false);
    expect(hasChartData(toChartPoints([{ date: '2025-03-05', count: 0 }]))).toBe(false);
    expect(hasChartData(toChartPoints([{ date: '2025-03-05', count: 1 }]))).toBe(true);
  });
});
