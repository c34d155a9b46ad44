import { describe, expect, it } from 'vitest';
import type { ClientStats } from '../../../contract/calls';
import { buildStatCards, hasStats } from './stat-cards';

const stats: ClientStats = {
  totalCalls: 12345,
  totalCost: 1234.5,
  avgDuration: 125,
  totalTransfers: 17,
  changes: { totalCalls: 12.5, totalCost: -3.24, avgDuration: 0, totalTransfers: -0.04 },
};

const changeLabel = 'vs last period';

describe('stat cards', () => {
  it('formats the four figures and their changes with sign and colour', () => {
    expect(buildStatCards(stats)).toEqual([
      {
        key: 'totalCalls',
        title: 'Total Calls',
        value: '12,345',
        change: '+12.5%',
        changeLabel,
        trend: 'up',
      },
      {
        key: 'totalCost',
        title: 'Total Cost',
        value: '$1,234.50',
        change: '-3.2%',
        changeLabel,
        trend: 'down',
      },
      { key: 'avgDuration', title: 'Avg Duration', value: '2:05', change: '+0.0%', changeLabel, trend: 'up' },
      // Rounds to zero, so it shows as +0.0% in green, never "-0.0%" in red.
      {
        key: 'totalTransfers',
        title: 'Total Transfers',
        value: '17',
        change: '+0.0%',
        changeLabel,
        trend: 'up',
      },
    ]);
  });

  it('says "new" rather than +100% for a figure that was 0 before', () => {
    const fromNothing: ClientStats = {
      ...stats,
      totalTransfers: 0,
      changes: { totalCalls: 100, totalCost: 100, avgDuration: 100, totalTransfers: 0 },
      previousPeriod: { totalCalls: 0, totalCost: 0, avgDuration: 0, totalTransfers: 0 },
    };
    const cards = buildStatCards(fromNothing);
    expect(cards[0]).toMatchObject({ change: 'new', changeLabel, trend: 'none' });
    // Nothing now and nothing before is no change at all.
    expect(cards[3]).toMatchObject({ change: '+0.0%', changeLabel, trend: 'up' });
  });

  it('has no cards without stats or without totalCalls', () => {
    expect(hasStats(undefined)).toBe(false);
    expect(hasStats(null)).toBe(false);
    expect(hasStats({ ...stats, totalCalls: undefined as unknown as number })).toBe(false);
    expect(hasStats({ ...stats, totalCalls: 0 })).toBe(true);
  });
});
