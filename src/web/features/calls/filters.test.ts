import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  analyticsSearchParams,
  callsSearchParams,
  chartInterval,
  DEFAULT_FILTERS,
  dateWindow,
  QUALITY_FILTERS,
  rememberNextPage,
  updateFilters,
  withReachablePage,
} from './filters';

describe('call filters', () => {
  const onPage3 = { ...DEFAULT_FILTERS, page: 3 };

  it('any filter change goes back to page 1', () => {
    expect(updateFilters(onPage3, { dateRange: '30d' })).toMatchObject({ dateRange: '30d', page: 1 });
    expect(updateFilters(onPage3, { pathway: 'sales' })).toMatchObject({ pathway: 'sales', page: 1 });
    expect(updateFilters(onPage3, { status: 'active' })).toMatchObject({ status: 'active', page: 1 });
    expect(updateFilters(onPage3, { search: '+1415' })).toMatchObject({ search: '+1415', page: 1 });
  });

  it('changing only the page keeps it; re-choosing the same value keeps the page', () => {
    expect(updateFilters(onPage3, { page: 4 }).page).toBe(4);
    expect(updateFilters(onPage3, { dateRange: '7d' }).page).toBe(3);
  });

  it('defaults to 7 days, all pathways, completed, page 1', () => {
    expect(DEFAULT_FILTERS).toEqual({
      dateRange: '7d',
      from: '',
      to: '',
      sort: null,
      order: null,
      pathway: 'all',
      status: 'completed',
      page: 1,
      search: '',
      outcome: 'all',
      attention: false,
      minLatencyP90Ms: null,
      minInterruptions: null,
      minDeadAirMs: null,
    });
  });

  it('the window is now minus N days to now', () => {
    const now = Date.UTC(2025, 2, 5, 12);
    expect(dateWindow('60d', now)).toEqual({
      startDate: new Date(now - 60 * 86_400_000).toISOString(),
      endDate: '2025-03-05T12:00:00.000Z',
    });
  });

  it('builds the calls query with dates, page size 10 and the search only when set', () => {
    const now = Date.UTC(2025, 2, 5, 12);
    const params = callsSearchParams({ ...DEFAULT_FILTERS, pathway: 'support', page: 2 }, now);
    expect(Object.fromEntries(params)).toEqual({
      pathway: 'support',
      status: 'completed',
      startDate: '2025-02-26T12:00:00.000Z',
      endDate: '2025-03-05T12:00:00.000Z',
      page: '2',
      limit: '10',
    });
    expect(callsSearchParams({ ...DEFAULT_FILTERS, search: '  abc ' }, now).get('search')).toBe('abc');
  });

  it('adds the outcome and attention filters only when set', () => {
    const now = Date.UTC(2025, 2, 5, 12);
    const plain = callsSearchParams(DEFAULT_FILTERS, now);
    expect(plain.has('outcome') || plain.has('attention')).toBe(false);
    const narrowed = callsSearchParams(
      { ...DEFAULT_FILTERS, outcome: 'Booked appointment', attention: true },
      now,
    );
    expect(narrowed.get('outcome')).toBe('Booked appointment');
    expect(narrowed.get('attention')).toBe('true');
  });
});

describe('quality filters', () => {
  it('send each bound the log is narrowed by, and none by default', () => {
    const now = Date.UTC(2025, 2, 5, 12);
    const plain = callsSearchParams(DEFAULT_FILTERS, now);
    expect(['minLatencyP90Ms', 'minInterruptions', 'minDeadAirMs'].some((k) => plain.has(k))).toBe(false);
    const narrowed = callsSearchParams(
      { ...DEFAULT_FILTERS, minLatencyP90Ms: 3500, minInterruptions: 1, minDeadAirMs: 5000 },
      now,
    );
    expect(narrowed.get('minLatencyP90Ms')).toBe('3500');
    expect(narrowed.get('minInterruptions')).toBe('1');
    expect(narrowed.get('minDeadAirMs')).toBe('5000');
  });

  it('are labelled in plain words with the bound in force, in seconds', () => {
    expect(QUALITY_FILTERS.map((f) => f.label(f.bound))).toEqual([
      'Slow answers (3.5 s or more)',
      'Interrupted',
      'Dead air (5.0 s or more)',
    ]);
    expect(QUALITY_FILTERS[1]?.label(3)).toBe('Interrupted 3+ times');
    expect(QUALITY_FILTERS[2]?.label(10_000)).toBe('Dead air (10.0 s or more)');
    for (const f of QUALITY_FILTERS) expect(f.label(f.bound)).not.toMatch(/p90|≥/);
  });

  it('say what each keeps in a sentence (the tooltip)', () => {
    expect(QUALITY_FILTERS.map((f) => f.hint(f.bound))).toEqual([
      'Calls where 1 answer in 10 took 3.5 s or more to start',
      'Calls where the caller spoke over the agent',
      'Calls with a silence of 5.0 s or more where nobody spoke',
    ]);
  });
});

describe('custom ranges', () => {
  const custom = { ...DEFAULT_FILTERS, from: '2026-03-10', to: '2026-03-12' };
  it('sends the local days, not a rolling window, and sorts when asked', () => {
    const params = callsSearchParams({ ...custom, sort: 'duration', order: 'asc' }, Date.UTC(2026, 2, 20));
    expect(params.get('from')).toBe('2026-03-10');
    expect(params.get('to')).toBe('2026-03-12');
    expect(params.has('startDate') || params.has('endDate')).toBe(false);
    expect(params.get('sort')).toBe('duration');
    expect(params.get('order')).toBe('asc');
    expect(Object.fromEntries(analyticsSearchParams(custom, 0))).toEqual({
      dateRange: '7d',
      from: '2026-03-10',
      to: '2026-03-12',
      pathway: 'all',
    });
  });
  it('charts one chosen day per hour, longer ranges per day', () => {
    expect(chartInterval({ ...custom, to: '2026-03-10' })).toBe('hour');
    expect(chartInterval(custom)).toBe('day');
    expect(chartInterval({ ...DEFAULT_FILTERS, dateRange: '1d' })).toBe('hour');
  });

  it('reads a searched page past 1,000 calls by the cursor Next kept, else the last page a number reaches', () => {
    // Ten calls a page: page 101 starts past the first 1,000.
    const searched = { ...DEFAULT_FILTERS, search: 'order', page: 101 };
    expect(withReachablePage(searched).page).toBe(100);
    expect(withReachablePage({ ...searched, page: 100 }).page).toBe(100);
    expect(withReachablePage({ ...searched, search: '' }).page).toBe(101);
    rememberNextPage(searched, { page: 100, nextAfter: 'cursor-101' }, 101);
    expect(withReachablePage(searched).page).toBe(101);
    expect(callsSearchParams(searched, Date.now()).get('after')).toBe('cursor-101');
  });
});

describe('activeFilterCount', () => {
  it('is 0 for the defaults, and the search and sort do not count', () => {
    expect(activeFilterCount(DEFAULT_FILTERS)).toBe(0);
    expect(
      activeFilterCount({ ...DEFAULT_FILTERS, search: 'refund', sort: 'cost', order: 'asc', page: 4 }),
    ).toBe(0);
  });

  it('counts each filter that narrows the view from its default once', () => {
    expect(activeFilterCount({ ...DEFAULT_FILTERS, dateRange: '30d' })).toBe(1);
    expect(activeFilterCount({ ...DEFAULT_FILTERS, from: '2026-03-01', to: '2026-03-05' })).toBe(1);
    expect(
      activeFilterCount({
        ...DEFAULT_FILTERS,
        pathway: 'sales',
        status: 'all',
        outcome: 'Booked appointment',
        attention: true,
        minInterruptions: 1,
        minDeadAirMs: 5000,
      }),
    ).toBe(6);
  });
});
