/**
 * The agency's portfolio (Analytics): calls, minutes, billed revenue, provider cost and
 * margin per client and in total over a range of days, against the range of the same length
 * before it, from the running totals of `client_call_days` (running-totals.ts) and the agency's
 * day rows for the chart, whatever the number of calls or days.
 *
 * The client table has a reader per database, each the faster there (portfolio-table.ts); both
 * answer the same table, and the API tests hold both to it on both databases.
 */

import { type Kysely, sql } from 'kysely';
import { clientNameOfRow } from '../../contract/admin';
import {
  type AdminAnalytics,
  type AnalyticsChanges,
  type AnalyticsFigures,
  type AnalyticsQuery,
  dayCount,
} from '../../contract/agency';
import { isoTime, paginationOf } from '../../contract/common';
import { lastCallTimes, listClientsOutsidePortfolio } from '../clients/clients-repository';
import { isPostgres } from '../db/dialect';
import type { Database } from '../db/schema';
import { qualityOfClients } from '../quality/agency-quality';
import { shiftDate } from '../time/time-zones';
import { percentChange } from '../time/window-change';
import { cents, figures, figuresOfLine, type PortfolioTableReader } from './portfolio-table';
import { readTableInApp } from './portfolio-table-in-app';
import { readTableInDatabase } from './portfolio-table-in-database';
import { analyticsRange, type DayRange, previousRange } from './running-totals';

/**
 * The portfolio's chart: every onboarded client's calls, revenue and cost per day, from the
 * agency's day rows less the days of clients not (or not yet) onboarded, who are few.
 */
async function portfolioSeries(db: Kysely<Database>, range: DayRange) {
  const sums = (table: 'agency_call_days' | 'client_call_days') =>
    [
      sql<number>`sum(${sql.ref(`${table}.call_count`)})`.as('calls'),
      sql<number>`sum(${sql.ref(`${table}.total_cost_micros`)})`.as('revenue'),
      sql<number>`sum(${sql.ref(`${table}.total_provider_micros`)})`.as('cost'),
    ] as const;
  const [all, outside] = await Promise.all([
    db
      .selectFrom('agency_call_days')
      .select('day')
      .select(sums('agency_call_days'))
      .where('day', '>=', range.from)
      .where('day', '<=', range.to)
      .groupBy('day')
      .execute(),
    // Clients not (or not yet) onboarded are few: their days are read by client.
    listClientsOutsidePortfolio(db).then((outsiders) =>
      outsiders.length === 0
        ? []
        : db
            .selectFrom('client_call_days')
            .select('day')
            .select(sums('client_call_days'))
            .where(
              'client_id',
              'in',
              outsiders.map((o) => o.id),
            )
            .where('day', '>=', range.from)
            .where('day', '<=', range.to)
            .groupBy('day')
            .execute(),
    ),
  ]);
  const byDay = new Map(all.map((d) => [d.day, d]));
  const less = new Map(outside.map((d) => [d.day, d]));
  const points: AdminAnalytics['series'] = [];
  for (let day = range.from; day <= range.to; day = shiftDate(day, 1)) {
    const d = byDay.get(day);
    const o = less.get(day);
    const net = (pick: 'calls' | 'revenue' | 'cost') => Number(d?.[pick] ?? 0) - Number(o?.[pick] ?? 0);
    points.push({
      date: day,
      calls: net('calls'),
      revenueCents: cents(net('revenue')),
      costCents: cents(net('cost')),
    });
  }
  return points;
}

function changes(current: AnalyticsFigures, previous: AnalyticsFigures): AnalyticsChanges {
  return {
    calls: percentChange(current.calls, previous.calls),
    minutes: percentChange(current.minutes, previous.minutes),
    revenueCents: percentChange(current.revenueCents, previous.revenueCents),
    costCents: percentChange(current.costCents, previous.costCents),
    marginCents: percentChange(current.marginCents, previous.marginCents),
  };
}

/** The client table's reader on this database (portfolio-table.ts). */
const tableReaderOf = (db: Kysely<Database>): PortfolioTableReader =>
  isPostgres(db) ? readTableInDatabase : readTableInApp;

/** The portfolio over a range: totals and changes, the chart, and one page of the client table. */
export async function portfolioAnalytics(
  db: Kysely<Database>,
  query: AnalyticsQuery,
  now: number,
  readTable: PortfolioTableReader = tableReaderOf(db),
): Promise<AdminAnalytics> {
  const range = analyticsRange(query, now);
  const [table, series] = await Promise.all([readTable(db, query, range, now), portfolioSeries(db, range)]);
  const pageIds = table.page.map((entry) => entry.client.id);
  const [lastCalls, quality] = await Promise.all([
    lastCallTimes(db, pageIds),
    qualityOfClients(db, pageIds, range.from, range.to),
  ]);
  const totals = figuresOfLine(table.totals.current);
  const previousTotals = figuresOfLine(table.totals.previous);
  return {
    range: { ...range, days: dayCount(range.from, range.to) },
    previous: previousRange(range),
    totals,
    previousTotals,
    changes: changes(totals, previousTotals),
    series,
    clients: table.page.map(({ client, current, previous }) => {
      const now = figures(current);
      return {
        clientId: client.id,
        name: clientNameOfRow(client),
        email: client.email,
        isActive: client.is_active === 1,
        ...now,
        changes: changes(now, figures(previous)),
        lastCallAt: isoTime(lastCalls.get(client.id)),
        medianResponseMs: quality.get(client.id)?.medianResponseMs ?? null,
        interruptionRate: quality.get(client.id)?.interruptionRate ?? null,
      };
    }),
    pagination: paginationOf(query.page, query.limit, table.matching),
  };
}
