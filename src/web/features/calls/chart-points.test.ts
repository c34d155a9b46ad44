import { describe, expect, it } from 'vitest';
import { describeChart, hasChartData, toChartPoints } from './chart-points';

const day = (points: { date: string; count: number }[], startDate = 'not a date') =>
  toChartPoints({ points, interval: 'day', startDate });

describe('chart points', () => {
  it('labels each day as short month and day, without shifting the calendar date', () => {
    expect(
      day([
        { date: '2025-03-05', count: 4 },
        { date: '2025-12-31', count: 0 },
        { date: '2026-01-01', count: 12 },
      ]).map(({ date, label, count }) => ({ date, label, count })),
    ).toEqual([
      { date: '2025-03-05', label: 'Mar 5', count: 4 },
      { date: '2025-12-31', label: 'Dec 31', count: 0 },
      { date: '2026-01-01', label: 'Jan 1', count: 12 },
    ]);
  });

  it('titles the first day with the window start and the last as so far', () => {
    const points = day(
      [
        { date: '2025-03-05', count: 1 },
        { date: '2025-03-06', count: 2 },
        { date: '2025-03-07', count: 3 },
      ],
      '2025-03-05T14:32:00.000Z',
    );
    expect(points[0].title).toMatch(/^Wed, Mar 5 \(since \d{1,2}:32 (AM|PM)\)$/);
    expect(points[1].title).toBe('Thu, Mar 6');
    expect(points[2].title).toBe('Fri, Mar 7 (so far)');
  });

  it('labels hourly points by the hour, in 12-hour time', () => {
    const points = toChartPoints({
      interval: 'hour',
      startDate: 'x',
      points: [
        { date: '2026-03-09T23:00', count: 0 },
        { date: '2026-03-10T00:00', count: 2 },
        { date: '2026-03-10T12:00', count: 1 },
      ],
    });
    expect(points.map((p) => p.label)).toEqual(['11 PM', '12 AM', '12 PM']);
    expect(points[1].title).toBe('Mar 10, 12 AM – 1 AM');
    expect(points[0].title).toBe('Mar 9, 11 PM – 12 AM');
  });

  it('treats a missing, empty or all-zero list as nothing to draw', () => {
    expect(toChartPoints(undefined)).toEqual([]);
    expect(toChartPoints(null)).toEqual([]);
    expect(hasChartData([])).toBe(false);
    expect(hasChartData(day([{ date: '2025-03-05', count: 0 }]))).toBe(false);
    expect(hasChartData(day([{ date: '2025-03-05', count: 1 }]))).toBe(true);
  });

  it('describes the chart in one sentence: total and busiest point', () => {
    const points = day([
      { date: '2025-03-05', count: 1 },
      { date: '2025-03-06', count: 1200 },
    ]);
    expect(describeChart(points)).toBe('Total 1,201 in the period; busiest: Thu, Mar 6 (so far) with 1,200.');
  });
});
