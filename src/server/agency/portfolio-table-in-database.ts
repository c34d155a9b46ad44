/**
 * The portfolio's client table worked out by the database (the reader on PostgreSQL): each
 * onboarded client joined with its running totals at the three period points, the sums
 * subtracted, ordered and paged there, and the total lines added there, so a request reads one
 * total row and one page instead of three rows of every client. On PostgreSQL, reading and
 * parsing those thousands of rows was most of the request (measured on 1,000 clients: p95
 * 19-20 → 12 ms for 30 days).
 *
 * The money is rounded to cents in integers, half up (`(micros + 5000) / 10000`): the same figure
 * as cents() in the app for the non-negative sums the running totals hold.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { defaultOrderOf, type PortfolioSort } from '../../contract/agency';
import { clientsAtPoints } from '../clients/clients-joined';
import { lastCallAtOf, listPortfolioClients } from '../clients/clients-repository';
import { isPostgres } from '../db/dialect';
import type { Database } from '../db/schema';
import { carriedThrough, carryClientDaysForward, type DaySums, RUNNING, sumsOf } from './client-days';
import { matchesSearch, type PortfolioTableReader, type TotalLine } from './portfolio-table';
import { ALL_SUMS, type PeriodSums, periodPoints } from './running-totals';

/** The SQL of one client's running total of a sum at a period point (0 before its first day). */
const totalAt = (point: 'e' | 'm' | 's', sum: keyof DaySums) =>
  sql<number>`coalesce(${sql.ref(`${point}.${RUNNING[sum]}`)}, 0)`;

/** A client's sum over the range (end less middle) or over the period before it (middle less start). */
const currentSum = (sum: keyof DaySums) => sql<number>`(${totalAt('e', sum)} - ${totalAt('m', sum)})`;
const previousSum = (sum: keyof DaySums) => sql<number>`(${totalAt('m', sum)} - ${totalAt('s', sum)})`;

const centsSql = (micros: RawBuilder<number>) => sql<number>`((${micros} + 5000) / 10000)`;

/** A share, null without a whole (for the order only: the answer's percentages are the app's). */
const shareSql = (part: RawBuilder<number>, whole: RawBuilder<number>) =>
  sql<number | null>`case when ${whole} = 0 then null else ${part} * 1.0 / ${whole} end`;

/** How lists name a client (clientNameOfRow): its company, else the person. */
const nameSql = sql<string>`coalesce(nullif(c.company_name, ''), trim(c.first_name || ' ' || c.last_name))`;

const revenueSql = centsSql(currentSum('costMicros'));
const costSql = centsSql(currentSum('providerMicros'));

/**
 * Names order in any case, by code point, as the app orders them (portfolio-table-in-app.ts)
 * whatever the database's collation.
 */
const nameOrder = (db: Kysely<Database>) =>
  isPostgres(db) ? sql`lower(${nameSql}) collate "C"` : sql`lower(${nameSql})`;

/** What each sortable column orders by, computed where the rows are (name and last call below). */
const SORT_SQL: Record<Exclude<PortfolioSort, 'name' | 'lastCallAt'>, RawBuilder<unknown>> = {
  revenueCents: revenueSql,
  costCents: costSql,
  marginCents: sql`(${revenueSql} - ${costSql})`,
  marginPercent: shareSql(sql`(${revenueSql} - ${costSql})`, revenueSql),
  calls: currentSum('calls'),
  minutes: currentSum('seconds'),
  answerRate: shareSql(currentSum('answered'), currentSum('calls')),
  failureRate: shareSql(currentSum('failed'), currentSum('calls')),
};

type AtPoints = ReturnType<typeof clientsAtPoints>;

const COUNTS = ['calls', 'seconds', 'answered', 'failed'] as const;

/**
 * Both periods' total lines over every onboarded client, and how many clients' rows stop before
 * the range's end (rows housekeeping has not carried forward yet).
 */
async function totalLines(atPoints: AtPoints, end: string) {
  const periods = { current: currentSum, previous: previousSum };
  const row: Record<string, unknown> = await atPoints
    .select([
      ...Object.entries(periods).flatMap(([period, of]) => [
        ...COUNTS.map((sum) => sql<string>`sum(${of(sum)})`.as(`${period}_${sum}`)),
        sql<string>`sum(${centsSql(of('costMicros'))})`.as(`${period}_revenue`),
        sql<string>`sum(${centsSql(of('providerMicros'))})`.as(`${period}_cost`),
      ]),
      sql<string>`count(*)`.as('clients'),
      sql<string>`sum(case when e.client_id is null and exists (select 1 from client_call_days d
        where d.client_id = c.id and d.day < ${end}) then 1 else 0 end)`.as('behind'),
    ])
    .executeTakeFirstOrThrow();
  const value = (column: string) => Number(row[column] ?? 0);
  const line = (period: keyof typeof periods): TotalLine => ({
    // Object.fromEntries answers a string-keyed record; the map gives one entry for each of COUNTS.
    ...(Object.fromEntries(COUNTS.map((sum) => [sum, value(`${period}_${sum}`)])) as Record<
      (typeof COUNTS)[number],
      number
    >),
    revenueCents: value(`${period}_revenue`),
    costCents: value(`${period}_cost`),
  });
  return {
    current: line('current'),
    previous: line('previous'),
    clients: value('clients'),
    behind: value('behind'),
  };
}

/** The page in the asked order, ties by name; `ids` narrows it to a search's matches. */
async function page(
  db: Kysely<Database>,
  query: Parameters<PortfolioTableReader>[1],
  ids: string[] | null,
  atPoints: AtPoints,
) {
  if (ids?.length === 0) return [];
  const key =
    query.sort === 'name'
      ? nameOrder(db)
      : query.sort === 'lastCallAt'
        ? sql`(${lastCallAtOf(db, 'c.id')})`
        : SORT_SQL[query.sort];
  let rows = atPoints.select([
    'c.id',
    'c.first_name',
    'c.last_name',
    'c.company_name',
    'c.email',
    'c.is_active',
    ...ALL_SUMS.map((sum) => currentSum(sum).as(`current_${sum}`)),
    ...ALL_SUMS.map((sum) => previousSum(sum).as(`previous_${sum}`)),
  ]);
  if (ids) rows = rows.where('c.id', 'in', ids);
  const found = await rows
    // Clients without a value (no calls, no revenue) go last either way.
    .orderBy(sql`case when ${key} is null then 1 else 0 end`)
    .orderBy(key, query.order ?? defaultOrderOf(query.sort))
    .orderBy(nameOrder(db))
    .orderBy(isPostgres(db) ? sql`c.id collate "C"` : sql`c.id`)
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute();
  return found.map(({ id, first_name, last_name, company_name, email, is_active, ...sums }) => {
    const of = (prefix: 'current' | 'previous'): PeriodSums =>
      // Object.fromEntries answers a string-keyed record; the map gives every sum's column name.
      sumsOf(sums, Object.fromEntries(ALL_SUMS.map((sum) => [sum, `${prefix}_${sum}`])) as never);
    return {
      client: { id, first_name, last_name, company_name, email, is_active },
      current: of('current'),
      previous: of('previous'),
    };
  });
}

export const readTableInDatabase: PortfolioTableReader = async (db, query, range, now) => {
  // No client is carried past this day, so a later point reads there (only calls dated in the
  // future could lie beyond it).
  const last = carriedThrough(now);
  const points = periodPoints(range).map((day) => [day, last].sort()[0]);
  const atPoints = clientsAtPoints(db, points);
  const ids = query.search
    ? listPortfolioClients(db).then((clients) => clients.filter(matchesSearch(query.search)).map((c) => c.id))
    : null;
  const [totals, entries] = await Promise.all([
    totalLines(atPoints, points[2]),
    Promise.resolve(ids).then((matching) => page(db, query, matching, atPoints)),
  ]);
  if (totals.behind > 0 && (await carryClientDaysForward(db, now)) > 0) {
    // Housekeeping has not carried every client this far yet (the app was down): carried now, so
    // the rows are dense again, and read again.
    return readTableInDatabase(db, query, range, now);
  }
  return {
    totals: { current: totals.current, previous: totals.previous },
    page: entries,
    matching: ids ? (await ids).length : totals.clients,
  };
};
