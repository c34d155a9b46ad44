/** The four summary cards (SPEC §2 "Summary statistics strip") as display-ready values. */
import type { ClientStats, StatChanges } from '../../../contract/calls';
import {
  formatCount,
  formatDuration,
  formatMoney,
  formatPercentChange,
  isNonNegativeChange,
} from '../../../contract/format';

export interface StatCard {
  key: keyof StatChanges;
  title: string;
  value: string;
  /** "+12.5%" or "-3.2%". */
  change: string;
  /** Green for zero or above, red below. */
  trend: 'up' | 'down';
}

/** With no stats, or totalCalls undefined, there are no cards ("No data available"). */
export function hasStats(stats: ClientStats | null | undefined): stats is ClientStats {
  return !!stats && stats.totalCalls !== undefined && stats.totalCalls !== null;
}

export function buildStatCards(stats: ClientStats): StatCard[] {
  const card = (key: keyof StatChanges, title: string, value: string): StatCard => {
    const change = Number(stats.changes?.[key] ?? 0);
    return {
      key,
      title,
      value,
      change: formatPercentChange(change),
      trend: isNonNegativeChange(change) ? 'up' : 'down',
    };
  };
  return [
    card('totalCalls', 'Total Calls', formatCount(stats.totalCalls)),
    card('totalCost', 'Total Cost', formatMoney(stats.totalCost)),
    card('avgDuration', 'Avg Duration', formatDuration(stats.avgDuration)),
    card('totalTransfers', 'Total Transfers', formatCount(stats.totalTransfers)),
  ];
}
