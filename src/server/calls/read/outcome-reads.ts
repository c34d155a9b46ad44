/**
 * The outcome reads a calls view shows (the summary strip and the stacked chart), each for the
 * loaded client with its time zone: the client, the admin's view of a client and the demo mount
 * them through calls/read/calls-view-routes.ts.
 */
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { ChartQuery, StatsQuery } from '../../../contract/calls';
import { OTHER_OUTCOME } from '../../../contract/outcomes';
import type { Database } from '../../db/schema';
import type { ClassificationGuard } from '../../outcomes/classification-guard';
import { outcomeSetOf } from '../../outcomes/outcomes-repository';
import { requestedWindow } from '../../time/date-windows';
import { outcomeSummary } from './outcome-summary';
import { outcomesOverTime } from './outcomes-over-time';

type OutcomesClient = { id: string; timezone: string };

export function outcomeReads(db: Kysely<Database>, guard: ClassificationGuard, now: () => number) {
  return {
    async summary(client: OutcomesClient, query: z.output<typeof StatsQuery>) {
      await guard.ensure(client.id);
      return outcomeSummary(db, client, requestedWindow(query, now(), client.timezone), query.pathway);
    },
    async overTime(client: OutcomesClient, query: z.output<typeof ChartQuery>) {
      await guard.ensure(client.id);
      const [set, points] = await Promise.all([
        outcomeSetOf(db, client.id),
        outcomesOverTime(db, client, query, now()),
      ]);
      // Names no longer in the list (sums not rebuilt yet after a change) count as Other, as in the summary.
      const known = new Set(set.outcomes.map((o) => o.name));
      return points.map(({ date, counts }) => {
        // A Map: an outcome's name is the client's text, and "constructor" is on every plain object.
        const folded = new Map<string, number>();
        for (const [name, n] of Object.entries(counts)) {
          const key = known.has(name) ? name : OTHER_OUTCOME;
          folded.set(key, (folded.get(key) ?? 0) + n);
        }
        return { date, counts: Object.fromEntries(folded) };
      });
    },
  };
}
