/**
 * What a period's report says: the numbers behind the e-mail digest and the monthly
 * PDF, read from the rollups like the dashboard, so both agree with it. Periods are whole local
 * days in the client's time zone, `from` and `to` included.
 */
import type { Kysely } from 'kysely';
import type { ClientStats, DailyPoint } from '../../contract/calls';
import { clockOf, zoneNamesBetween } from '../../contract/local-time';
import type { OutcomeSummaryItem } from '../../contract/outcomes';
import { minutesBetween } from '../call-rows/usage';
import { getCallsPerDayInWindow, getClientStats } from '../calls/read/call-queries';
import { outcomeSummary } from '../calls/read/outcome-summary';
import type { ClientRow, Database } from '../db/schema';
import { localDaysWindow } from '../time/date-windows';

export interface PeriodReport {
  clientName: string;
  timezone: string;
  /** The locale its dates are written in (regional.ts, from the client's country). */
  locale: string;
  /** The zone's short name over the period ("EST", "EDT/EST" across a DST change). */
  zoneName: string;
  /** YYYY-MM-DD, local, both included. */
  from: string;
  to: string;
  stats: ClientStats;
  minutes: number;
  outcomes: OutcomeSummaryItem[];
  /** Calls of the period that still need a person. */
  needsAttention: number;
  /** Completed calls per local day. */
  perDay: DailyPoint[];
  /** The client may read its platform's terms ("pathway"): the agency shows them to it. */
  showPlatform: boolean;
  /** The busiest pathways, most calls first (at most five). */
  topPathways: { pathway: string; calls: number }[];
  plan: { name: string; minutesIncluded: number; monthlyPrice: number } | null;
}

export async function periodReport(
  db: Kysely<Database>,
  client: Pick<ClientRow, 'id' | 'timezone' | 'company_name' | 'email' | 'country'> &
    Partial<Pick<ClientRow, 'show_platform_details'>>,
  from: string,
  to: string,
): Promise<PeriodReport> {
  const tz = client.timezone;
  // The same window a dashboard or export of these days reads; created_at in [start, end).
  const window = localDaysWindow(from, to, tz);
  const start = window.from + 1;
  const clock = clockOf(client);
  const end = window.to + 1;
  const real = () =>
    db
      .selectFrom('calls')
      .where('client_id', '=', client.id)
      .where('verified', '=', 1)
      .where('is_proxy', '=', 0)
      .where('source', '!=', 'sample')
      .where('created_at', '>=', start)
      .where('created_at', '<', end);
  const [stats, minutes, outcomes, attention, perDay, pathways, plan] = await Promise.all([
    getClientStats(db, client, window),
    minutesBetween(db, client.id, start, end),
    outcomeSummary(db, client, window, null),
    real()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('attention_reasons', 'is not', null)
      .where('handled_at', 'is', null)
      .executeTakeFirst(),
    getCallsPerDayInWindow(db, { id: client.id, timezone: tz }, window),
    real()
      .select(['pathway', (eb) => eb.fn.countAll<number>().as('calls')])
      .groupBy('pathway')
      .orderBy('calls', 'desc')
      .orderBy('pathway')
      .limit(5)
      .execute(),
    db
      .selectFrom('subscriptions')
      .innerJoin('plans', 'plans.id', 'subscriptions.plan_id')
      .select([
        'plans.name as name',
        'plans.minutes_included as minutesIncluded',
        'plans.monthly_price_cents as cents',
      ])
      .where('subscriptions.client_id', '=', client.id)
      .executeTakeFirst(),
  ]);
  return {
    clientName: client.company_name || client.email,
    timezone: tz,
    locale: clock.locale,
    zoneName: zoneNamesBetween(start, window.to, clock),
    from,
    to,
    stats,
    minutes,
    outcomes,
    needsAttention: Number(attention?.n ?? 0),
    perDay,
    showPlatform: client.show_platform_details === 1,
    topPathways: pathways.map((p) => ({ pathway: p.pathway, calls: Number(p.calls) })),
    plan: plan
      ? {
          name: plan.name,
          minutesIncluded: Number(plan.minutesIncluded),
          monthlyPrice: Number(plan.cents) / 100,
        }
      : null,
  };
}
