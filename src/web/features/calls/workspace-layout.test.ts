import { describe, expect, it } from 'vitest';
import { isSearchShown, readView, splitSections, workspaceSections, writeView } from './workspace-layout';

describe('calls workspace layout', () => {
  it('client dashboard: banner, heading, live, then search and filters above the stats', () => {
    const layout = {
      banners: true,
      heading: true,
      live: true,
      filtersAt: 'top',
      besideCallsChart: false,
    } as const;
    expect(workspaceSections({ ...layout, searchShown: false })).toEqual([
      'banners',
      'heading',
      'live-now',
      'filters',
      'stats',
      'outcomes',
      'log',
    ]);
    expect(workspaceSections({ ...layout, searchShown: true })).toEqual([
      'banners',
      'heading',
      'live-now',
      'search',
      'filters',
      'stats',
      'outcomes',
      'log',
    ]);
  });

  it('admin client view: search and filters just above the log', () => {
    expect(
      workspaceSections({
        banners: true,
        heading: true,
        live: true,
        searchShown: true,
        filtersAt: 'log',
        besideCallsChart: false,
      }),
    ).toEqual(['banners', 'heading', 'live-now', 'stats', 'outcomes', 'search', 'filters', 'log']);
  });

  it('demo: no heading, live strip or search; the calls chart beside its panel under the stats', () => {
    expect(
      workspaceSections({
        banners: false,
        heading: false,
        live: false,
        searchShown: false,
        filtersAt: 'log',
        besideCallsChart: true,
      }),
    ).toEqual(['stats', 'calls-chart-beside', 'outcomes', 'filters', 'log']);
  });

  it('shows a toggled search only while open, an always-shown one always, none never', () => {
    expect(isSearchShown('toggle', false)).toBe(false);
    expect(isSearchShown('toggle', true)).toBe(true);
    expect(isSearchShown('always', false)).toBe(true);
    expect(isSearchShown('none', true)).toBe(false);
  });

  it('puts the banners, heading and live strip above the views’ tabs, the rest under the calls tab', () => {
    expect(
      splitSections(['banners', 'heading', 'live-now', 'search', 'filters', 'stats', 'outcomes', 'log']),
    ).toEqual({
      shared: ['banners', 'heading', 'live-now'],
      calls: ['search', 'filters', 'stats', 'outcomes', 'log'],
    });
  });

  it('keeps the view in the URL: ?view=quality, the calls without a parameter, others kept', () => {
    expect(readView('?view=quality&range=30d')).toBe('quality');
    expect(readView('?view=charts')).toBe('calls');
    expect(readView('')).toBe('calls');
    expect(writeView('?range=30d&call=abc', 'quality')).toBe('?range=30d&call=abc&view=quality');
    expect(writeView('?view=quality&range=30d', 'calls')).toBe('?range=30d');
    expect(writeView('?view=quality', 'calls')).toBe('');
  });
});
