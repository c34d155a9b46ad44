import { describe, expect, it } from 'vitest';
import { countIn, seriesWithCalls, toOutcomeChartRows } from './outcome-chart-rows';

const series = (...names: string[]) => names.map((name) => ({ name, color: '#000' }));

describe('outcome chart rows', () => {
  it('totals each day and stacks only the outcomes with calls, in the summary’s order', () => {
    const rows = toOutcomeChartRows(
      [
        { date: '2026-11-26', counts: { Voicemail: 2, 'Booked appointment': 1 } },
        { date: '2026-11-27', counts: { Voicemail: 1 } },
      ],
      'day',
      'not a date',
    );
    expect(rows.map((r) => r.count)).toEqual([3, 1]);
    expect(countIn(rows[0], 'Booked appointment')).toBe(1);
    expect(countIn(rows[1], 'Booked appointment')).toBe(0);
    expect(
      seriesWithCalls(series('Booked appointment', 'No answer', 'Voicemail'), rows).map((s) => s.name),
    ).toEqual(['Booked appointment', 'Voicemail']);
  });

  it('reads an outcome named like an object property as any other name', () => {
    // A client names its outcomes; with a plain object every row had a "constructor".
    const rows = toOutcomeChartRows(
      [
        { date: '2026-11-26', counts: { toString: 4 } },
        { date: '2026-11-27', counts: {} },
      ],
      'day',
      'not a date',
    );
    expect(countIn(rows[0], 'toString')).toBe(4);
    expect(countIn(rows[1], 'constructor')).toBe(0);
    expect(seriesWithCalls(series('constructor', 'toString'), rows).map((s) => s.name)).toEqual(['toString']);
  });
});
