/** The four summary cards (SPEC §2 "Summary statistics strip") as display-ready values. */
import type { ClientStats, StatChanges } from '../../../contract/calls';
import {
  CHANGE_FROM_NOTHING,
  formatCount,
  formatDuration,
  formatMoney,
  formatPercentChange,
  isChangeFromNothing,
  isNonNegativeChange,
} from '../../../contract/format';

export interface StatCard {
  key: keyof StatChanges;
  title: string;
  value: string;
  /** "+12.5%" or "-3.2%"; "new" when the last period had none (no percentage against zero). */
  change: string;
  /** SPEC's "vs last period". */
  changeLabel: string;
  /** SPEC's rule: green for zero or above, red below; neutral for "new". */
  trend: 'up' | 'down' | 'none';
}

/** With no stats, or totalCalls undefined, there are no cards ("No data available"). */
export function hasStats(stats: ClientStats | null | undefined): stats is ClientStats {
  return !!stats && stats.totalCalls !== undefined && stats.totalCalls !== null;
}

export function buildStatCards(stats: ClientStats): StatCard[] {
  const card = (key: keyof StatChanges, title: string, value: string): StatCard => {
    if (isChangeFromNothing(stats[key], stats.previousPeriod?.[key])) {
      // A rise from nothing is not "+100%".
      return { key, title, value, change: CHANGE_FROM_NOTHING, changeLabel: 'vs last period', trend: 'none' };
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
