/** The outcome summary of a window: counts per outcome from the outcome rollups, values, changes. */
import type { Kysely } from 'kysely';
import {
  OTHER_OUTCOME,
  OTHER_OUTCOME_COLOR,
  type OutcomeSummaryItem,
  outcomeGoodWhen,
} from '../../../contract/outcomes';
import type { Database } from '../../db/schema';
import { outcomeSetOf } from '../../outcomes/outcomes-repository';
import type { CallWindow } from '../../time/date-windows';
import { percentChange } from '../../time/window-change';
import { totalsByStatus } from './call-queries';

export async function outcomeSummary(
  db: Kysely<Database>,
  client: { id: string; timezone: string },
  window: CallWindow,
  pathway: string | null,
): Promise<OutcomeSummaryItem[]> {
  const clientId = client.id;
  const span = window.to - window.from;
  const filter = { pathway };
  const [set, current, previous] = await Promise.all([
    outcomeSetOf(db, clientId),
    totalsByStatus(db, client, window.from, window.to, filter, 'outcome'),
    totalsByStatus(db, client, window.from - span, window.from, filter, 'outcome'),
  ]);
  // Names no longer in the list (sums not rebuilt yet after a change) count as Other meanwhile.
  const known = new Set(set.outcomes.map((o) => o.name));
  const countsOf = (totals: typeof current) => {
    const counts = new Map<string, number>();
    for (const t of totals) {
      const name = known.has(t.status) ? t.status : OTHER_OUTCOME;
      counts.set(name, (counts.get(name) ?? 0) + t.count);
    }
    return counts;
  };
  const now = countsOf(current);
  const before = countsOf(previous);
  const item = (
    name: string,
    color: string,
    value: number | null,
    goodWhen: OutcomeSummaryItem['goodWhen'],
  ): OutcomeSummaryItem => {
    const count = now.get(name) ?? 0;
    return {
      name,
      color,
      count,
      value: value === null ? null : Math.round(count * value * 100) / 100,
      change: percentChange(count, before.get(name) ?? 0),
      previousCount: before.get(name) ?? 0,
      goodWhen,
    };
  };
  return [
    ...set.outcomes.map((o) => item(o.name, o.color, o.value, outcomeGoodWhen(o))),
    item(OTHER_OUTCOME, OTHER_OUTCOME_COLOR, null, null),
  ];
}
