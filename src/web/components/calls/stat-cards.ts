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
  /** "+12.5%" or "-3.2%"; "—" when there is nothing earlier to compare with. */
  change: string;
  /** "vs last period", or "no earlier data". */
  changeLabel: string;
  /** Green for zero or above, red below, neutral without earlier data. */
  trend: 'up' | 'down' | 'none';
}

/** With no stats, or totalCalls undefined, there are no cards ("No data available"). */
export function hasStats(stats: ClientStats | null | undefined): stats is ClientStats {
  return !!stats && stats.totalCalls !== undefined && stats.totalCalls !== null;
}

export function buildStatCards(stats: ClientStats): StatCard[] {
  const card = (key: keyof StatChanges, title: string, value: string): StatCard => {
    if (stats.previousPeriod?.[key] === 0 && stats[key] !== 0) {
      // A rise from nothing is not "+100%": say there is nothing to compare with.
      return { key, title, value, change: '—', changeLabel: 'no earlier data', trend: 'none' };
    }
    const change = Number(stats.changes?.[key] ?? 0);
    return {
      key,
      title,
      value,
      change: formatPercentChange(change),
      changeLabel: 'vs last period',
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
