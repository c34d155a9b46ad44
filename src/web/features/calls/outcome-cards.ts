/** The outcomes strip's cards and its headline, as display-ready values. */

import {
  CHANGE_FROM_NOTHING,
  changeMeaning,
  formatCount,
  formatMoney,
  formatPercentChange,
  isChangeFromNothing,
} from '../../../contract/format';
import type { OutcomeSummaryItem } from '../../../contract/outcomes';
import { OTHER_OUTCOME } from '../../../contract/outcomes';

export interface OutcomeCard {
  name: string;
  color: string;
  count: string;
  /** "38% of calls". */
  share: string;
  /** "$4,320" when the outcome has a value per call; null otherwise. */
  value: string | null;
  /** "+12.5%", or "new" when the last period had none. */
  change: string;
  changeLabel: string;
  /**
   * What the change means for the business (as the agency's Analytics colours it): fewer failed
   * calls is good news; none for "new", "Other" and no change.
   */
  trend: 'good' | 'bad' | 'flat' | 'none';
}

/** Outcomes the client named, then "Other" only when some calls matched none. */
export function buildOutcomeCards(summary: OutcomeSummaryItem[]): OutcomeCard[] {
  const total = summary.reduce((n, s) => n + s.count, 0);
  return summary
    .filter((s) => s.name !== OTHER_OUTCOME || s.count > 0)
    .map((s) => {
      const fromNothing = isChangeFromNothing(s.count, s.previousCount);
      return {
        name: s.name,
        color: s.color,
        count: formatCount(s.count),
        share: `${total ? Math.round((s.count / total) * 100) : 0}% of calls`,
        value: s.value === null ? null : formatMoney(s.value),
        change: fromNothing ? CHANGE_FROM_NOTHING : formatPercentChange(s.change),
        changeLabel: 'vs last period',
        trend: fromNothing || s.goodWhen === null ? 'none' : changeMeaning(s.change, s.goodWhen),
      };
    });
}

const plural = (name: string) => (/s$/i.test(name) ? name : `${name}s`).toLowerCase();

/**
 * What the window's calls were worth, said after the bold total: "in booked appointments" for
 * one valued outcome, "in value: $4,320.00 in booked appointments and $480.00 in qualified
 * leads" for several; null when no outcome has a value.
 */
export function valueHeadline(summary: OutcomeSummaryItem[]): { total: string; text: string } | null {
  const valued = summary.filter((s) => s.value !== null);
  if (valued.length === 0) return null;
  const total = valued.reduce((n, s) => n + (s.value ?? 0), 0);
  const earning = valued.filter((s) => (s.value ?? 0) > 0);
  if (earning.length <= 1)
    return { total: formatMoney(total), text: `in ${plural((earning[0] ?? valued[0]).name)}` };
  const parts = earning.map((s) => `${formatMoney(s.value ?? 0)} in ${plural(s.name)}`);
  return {
    total: formatMoney(total),
    text: `in value: ${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`,
  };
}
