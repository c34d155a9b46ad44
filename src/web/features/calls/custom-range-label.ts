/** The Date Range select's label of a custom range, apart from the dialog that picks it (loaded only when opened). */
import { formatChartDate } from '../../../contract/format';

/** "Mar 10 – Mar 12, 2026"-style label of a range, for the Date Range select. */
export function rangeLabel(from: string, to: string): string {
  if (from === to) return `${formatChartDate(from)}, ${from.slice(0, 4)}`;
  const sameYear = from.slice(0, 4) === to.slice(0, 4);
  return sameYear
    ? `${formatChartDate(from)} – ${formatChartDate(to)}, ${to.slice(0, 4)}`
    : `${formatChartDate(from)}, ${from.slice(0, 4)} – ${formatChartDate(to)}, ${to.slice(0, 4)}`;
}
