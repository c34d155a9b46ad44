import { describe, expect, it } from 'vitest';
import { type CallFilters, DEFAULT_FILTERS } from './filters';
import { readFilters, writeFilters } from './url-filters';

const RANGES = ['7d', '30d', '60d'] as const;

describe('filters in the URL', () => {
  it('writes only what differs from the defaults, and reads it back the same', () => {
    const view: CallFilters = {
      ...DEFAULT_FILTERS,
      from: '2026-03-10',
      to: '2026-03-12',
      pathway: 'support',
      status: 'all',
      page: 3,
      search: '"refund policy"',
      outcome: 'Booked appointment',
      attention: true,
      minLatencyP90Ms: 3500,
      minInterruptions: 1,
      minDeadAirMs: 5000,
      sort: 'cost',
      order: 'asc',
    };
    const query = writeFilters('', view, DEFAULT_FILTERS);
    expect(query).toBe(
      '?from=2026-03-10&to=2026-03-12&pathway=support&status=all&page=3&q=%22refund+policy%22&outcome=Booked+appointment&attention=1&p90=3500&interruptions=1&deadair=5000&sort=cost&order=asc',
    );
    expect(readFilters(query, DEFAULT_FILTERS, RANGES)).toEqual(view);
    expect(writeFilters('', DEFAULT_FILTERS, DEFAULT_FILTERS)).toBe('');
  });

  it('keeps the open call and the view, and drops parameters that went back to their default', () => {
    const query = writeFilters(
      '?call=abc&t=12&range=30d&view=quality&p90=3500',
      { ...DEFAULT_FILTERS },
      DEFAULT_FILTERS,
    );
    expect(query).toBe('?call=abc&t=12&view=quality');
  });

  it('falls back to the default for anything unreadable in a hand-edited link', () => {
    const read = readFilters(
      '?range=5y&from=2026-03-12&to=2026-03-10&status=maybe&page=-2&sort=price&order=up&attention=yes&p90=fast&interruptions=0&deadair=12345678',
      DEFAULT_FILTERS,
      RANGES,
    );
    expect(read).toEqual(DEFAULT_FILTERS);
    // A range the view does not offer is not taken either.
    expect(readFilters('?range=90d', DEFAULT_FILTERS, RANGES).dateRange).toBe('7d');
    expect(readFilters('?range=30d', DEFAULT_FILTERS, RANGES).dateRange).toBe('30d');
  });
});
