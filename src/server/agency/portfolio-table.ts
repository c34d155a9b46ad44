/**
 * The portfolio's client table as its readers answer it (portfolio-table-in-app.ts on SQLite,
 * portfolio-table-in-database.ts on PostgreSQL), and the figures both work out the same way.
 *
 * Each client's cents are rounded once from its micro-dollars, and the total lines add those
 * cents, so the table adds up to its total line to the cent.
 */
import type { Kysely } from 'kysely';
import { clientNameOfRow } from '../../contract/admin';
import type { AnalyticsFigures, AnalyticsQuery } from '../../contract/agency';
import type { listPortfolioClients } from '../clients/clients-repository';
import type { Database } from '../db/schema';
import type { DayRange, PeriodSums } from './running-totals';

/** An onboarded client as the table names it. */
export type PortfolioClientRow = Awaited<ReturnType<typeof listPortfolioClients>>[number];

/** A client of the page with its sums over the range and over the period before it. */
export interface PortfolioEntry {
  client: PortfolioClientRow;
  current: PeriodSums;
  previous: PeriodSums;
}

/** The total line of a period: every client added, its money rounded to cents once. */
export interface TotalLine {
  calls: number;
  seconds: number;
  answered: number;
  failed: number;
  revenueCents: number;
  costCents: number;
}

export interface PortfolioTable {
  totals: { current: TotalLine; previous: TotalLine };
  /** The page asked for, in the asked order (ties by name). */
  page: PortfolioEntry[];
  /** How many clients the table holds (those matching the search): the pagination's total. */
  matching: number;
}

export type PortfolioTableReader = (
  db: Kysely<Database>,
  query: AnalyticsQuery,
  range: DayRange,
  now: number,
) => Promise<PortfolioTable>;

export const cents = (micros: number) => Math.round(micros / 10_000);

const percent = (part: number, whole: number) =>
  whole === 0 ? null : Math.round((part / whole) * 1000) / 10;

export function figuresOfLine(line: TotalLine): AnalyticsFigures {
  const marginCents = line.revenueCents - line.costCents;
  return {
    calls: line.calls,
    minutes: Math.round((line.seconds / 60) * 10) / 10,
    revenueCents: line.revenueCents,
    costCents: line.costCents,
    marginCents,
    marginPercent: percent(marginCents, line.revenueCents),
    answerRate: percent(line.answered, line.calls),
    failureRate: percent(line.failed, line.calls),
  };
}

export const lineOf = (s: PeriodSums): TotalLine => ({
  calls: s.calls,
  seconds: s.seconds,
  answered: s.answered,
  failed: s.failed,
  revenueCents: cents(s.costMicros),
  costCents: cents(s.providerMicros),
});

export const figures = (s: PeriodSums): AnalyticsFigures => figuresOfLine(lineOf(s));

/** The onboarded clients whose name or e-mail holds `search`, in any case (as the browser compares). */
export function matchesSearch(search: string | undefined) {
  const needle = search?.toLowerCase();
  return (client: PortfolioClientRow) =>
    !needle ||
    clientNameOfRow(client).toLowerCase().includes(needle) ||
    client.email.toLowerCase().includes(needle);
}
