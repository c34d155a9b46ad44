/**
 * The call log (SPEC §7 GET …/calls, issue 15): its filters, search, sorting and paging, shared by
 * the client, the admin, the demo and the export. A page is read in two steps: the ids of the
 * page in order (an index walk, or the ranked matches), then those rows in full, so no sort ever
 * carries whole transcripts.
 */
import { paginationOf } from '../../../contract/common';
import { type Kysely, type SqlBool, sql } from 'kysely';
import type { CallFilterQuery, CallSort, CallsPage, CallsQuery, SortOrder } from '../../../contract/calls';
import type { CallRow, ClientRow, Database } from '../../db/schema';
import { localDaysWindow, rollingWindow } from '../../time/date-windows';
import { type StatusTotals, toCall, totalsByStatus } from './call-queries';
import { type SearchQuery, isRankable } from '../../../contract/search-query';
import { isPostgres } from '../../db/dialect';
import { type LogSearch, logSearchOf, postgresRank, searchCondition, sqliteMatches } from './call-search';
import { snippetOf } from './search-snippet';

/** A log's window: created_at in (from, to]; a null end is open. */
export interface LogWindow {
  from: number | null;
  to: number | null;
}

/**
 * The log's window: custom days in the client's zone, else startDate..endDate (both included),
 * else a `dateRange` alone as the stats read it (the last N days up to now), else every call.
 * Explicit dates win over a `dateRange` sent with them.
 */
export function logWindow(query: CallFilterQuery, timeZone: string, now: number): LogWindow {
  if (query.from !== undefined && query.to !== undefined)
    return localDaysWindow(query.from, query.to, timeZone);
  if (query.startDate !== undefined || query.endDate !== undefined)
    return { from: query.startDate === undefined ? null : query.startDate - 1, to: query.endDate ?? null };
  if (query.dateRange !== undefined) return rollingWindow(query.dateRange, now);
  return { from: null, to: null };
}

export const SORT_COLUMNS = {
  created: 'created_at',
  duration: 'duration_seconds',
  cost: 'cost_micros',
} as const satisfies Record<Exclude<CallSort, 'relevance'>, keyof CallRow>;

/** How a log is ordered: best match first needs a word search with nothing else to match. */
export function logOrder(
  query: CallFilterQuery,
  search: LogSearch | null,
): { sort: CallSort; order: SortOrder } {
  const rankable = isRankable(search);
  const sort = query.sort ?? (rankable ? 'relevance' : 'created');
  if (sort === 'relevance' && !rankable) return { sort: 'created', order: query.order ?? 'desc' };
  return { sort, order: query.order ?? 'desc' };
}

/**
 * The calls a log lists: one client's (or, for the admin's export, every client's when
 * `clientId` is null), counted and verified, narrowed by the query's filters. With
 * `rankedSearch` the word search is left to the caller's join (SQLite ranks only inside FTS5).
 */
export function filteredCalls(
  db: Kysely<Database>,
  clientId: string | null,
  query: CallFilterQuery,
  window: LogWindow,
  search: LogSearch | null,
  rankedSearch = false,
) {
  let base = db.selectFrom('calls').where('calls.is_proxy', '=', 0).where('calls.verified', '=', 1);
  if (clientId !== null) base = base.where('calls.client_id', '=', clientId);
  if (window.from !== null) base = base.where('calls.created_at', '>', window.from);
  if (window.to !== null) base = base.where('calls.created_at', '<=', window.to);
  if (query.status) base = base.where('calls.status', '=', query.status);
  if (query.pathway) base = base.where(sql`lower(calls.pathway)`, '=', query.pathway.toLowerCase());
  if (query.outcome) base = base.where(sql`lower(calls.outcome)`, '=', query.outcome.toLowerCase());
  if (query.attention === 'true')
    base = base.where('calls.attention_reasons', 'is not', null).where('calls.handled_at', 'is', null);
  // `+column`: no index condition, so the log walks its own order (newest first) and stops at the
  // page; the figures' partial indexes made the planners read every slow call of the client
  // first (600 ms for a month of the 1M-call client on SQLite).
  if (query.minLatencyP90Ms !== undefined)
    base = base.where(sql<number>`+calls.quality_latency_p90_ms`, '>=', query.minLatencyP90Ms);
  if (query.minInterruptions !== undefined)
    base = base.where(sql<number>`+calls.quality_interruptions_caller`, '>=', query.minInterruptions);
  if (query.minDeadAirMs !== undefined)
    base = base.where(sql<number>`+calls.quality_dead_air_ms`, '>=', query.minDeadAirMs);
  if (search && !(rankedSearch && !isPostgres(db))) base = base.where(searchCondition(db, search, clientId));
  return base;
}

type Filtered = ReturnType<typeof filteredCalls>;

/**
 * A ranked page's ids, best match first, with the number of matches counted in the same pass
 * (`count(*) over ()`): ranking has to visit every match anyway, and a second pass for the total
 * would double a search's cost. The total is null when the page lies past the last match.
 */
async function rankedPage(
  db: Kysely<Database>,
  base: Filtered,
  clientId: string,
  words: SearchQuery,
  limit: number,
  offset: number,
): Promise<{ ids: string[]; total: number | null }> {
  const ranked = isPostgres(db)
    ? base.select('calls.id').orderBy(postgresRank(words), 'desc')
    : base
        .innerJoin(sqliteMatches(words, clientId).as('f'), (join) =>
          join.on(sql<SqlBool>`f.fts_rowid = calls.rowid`),
        )
        .select('calls.id')
        .orderBy(sql`f.fts_rank`);
  const rows = await ranked
    .select(sql<number>`count(*) over ()`.as('matches'))
    .orderBy('calls.created_at', 'desc')
    .orderBy('calls.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return { ids: rows.map((r) => r.id), total: rows.length > 0 ? Number(rows[0].matches) : null };
}

/** The page's ids in the order of a column (and id, so pages never overlap). */
async function pageIds(
  base: Filtered,
  sort: Exclude<CallSort, 'relevance'>,
  order: SortOrder,
  limit: number,
  offset: number,
): Promise<string[]> {
  const rows = await base
    .select('calls.id')
    .orderBy(`calls.${SORT_COLUMNS[sort]}`, order)
    .orderBy('calls.id', order)
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => r.id);
}

const hasQualityFilter = (q: CallFilterQuery) =>
  q.minLatencyP90Ms !== undefined || q.minInterruptions !== undefined || q.minDeadAirMs !== undefined;

/** How many calls the log lists: from the rollups when the filters allow it, else counted. */
async function countCalls(
  db: Kysely<Database>,
  base: Filtered,
  client: CallsClient,
  query: CallFilterQuery,
  window: LogWindow,
  search: LogSearch | null,
): Promise<number> {
  const outcome = query.outcome?.toLowerCase();
  const sumOf = (totals: StatusTotals[]) => totals.reduce((n, t) => n + t.count, 0);
  // Text search, the open-attention filter (a partial index), or an outcome and a status together
  // have to look at the calls; everything else is summed from the rollups.
  if (search || query.attention === 'true' || (outcome && query.status) || hasQualityFilter(query))
    return Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const { from, to } = window;
  if (outcome) {
    const totals = await totalsByStatus(db, client, from, to, { pathway: query.pathway }, 'outcome');
    return sumOf(totals.filter((t) => t.status.toLowerCase() === outcome));
  }
  return sumOf(await totalsByStatus(db, client, from, to, { status: query.status, pathway: query.pathway }));
}

/** The client a read is for, as the guard (or the admin's path, or the demo) loaded it. */
export type CallsClient = Pick<ClientRow, 'id' | 'timezone'>;

/**
 * The call log: a page of calls in the asked order, with the total count. `numbersMasked`: the
 * reader sees masked numbers, so a number is searched only whole (call-search.ts); the caller
 * masks the answer.
 */
export async function listCalls(
  db: Kysely<Database>,
  client: CallsClient,
  query: CallsQuery,
  now: number,
  numbersMasked = false,
): Promise<CallsPage> {
  const { page, limit } = query;
  const clientId = client.id;
  const window = logWindow(query, client.timezone, now);
  const search = query.search ? logSearchOf(query.search, numbersMasked) : null;
  const { sort, order } = logOrder(query, search);
  const base = filteredCalls(db, clientId, query, window, search);

  const offset = (page - 1) * limit;
  let ids: string[] = [];
  let total: number;
  let bounded: { lowerBound: boolean; fullPage: boolean } | undefined;
  if (hasQualityFilter(query) && !search) {
    // No rollup counts calls by their quality: counting a month of a big client's slow calls
    // took 3 s. Counted up to the bound instead ("of 1,000+"), paged from the front.
    const counted = await countUpTo(base, QUALITY_COUNT_BOUND + 1);
    total = Math.min(counted, QUALITY_COUNT_BOUND);
    ids = await pageIds(base, sort === 'relevance' ? 'created' : sort, order, limit, offset);
    bounded = { lowerBound: counted > QUALITY_COUNT_BOUND, fullPage: ids.length === limit };
  } else if (sort === 'relevance' && search?.words) {
    const rankedBase = filteredCalls(db, clientId, query, window, search, true);
    const found = await rankedPage(db, rankedBase, clientId, search.words, limit, offset);
    ids = found.ids;
    total = found.total ?? (await countCalls(db, base, client, query, window, search));
  } else {
    const column = sort as Exclude<CallSort, 'relevance'>;
    total = await countCalls(db, base, client, query, window, search);
    if (offset < total) {
      // Deep pages read from the other end of the order, so the last page is as cheap as the first.
      if (offset + limit > total / 2) {
        const take = Math.min(limit, total - offset);
        const reversed = order === 'desc' ? 'asc' : 'desc';
        ids = (await pageIds(base, column, reversed, take, total - offset - take)).reverse();
      } else {
        ids = await pageIds(base, column, order, limit, offset);
      }
    }
  }
  const rows = await rowsInOrder(db, ids);
  const calls = rows.map((row) => {
    const call = toCall(row);
    return search?.words ? { ...call, snippet: snippetOf(row, search.words) } : call;
  });
  return { calls, pagination: paginationOf(page, limit, total, bounded) };
}

/** A quality-filtered log counts its calls exactly up to this many. */
export const QUALITY_COUNT_BOUND = 1000;

/** How many calls the log lists, counted no further than `bound` (ids of at most that many). */
async function countUpTo(base: Filtered, bound: number): Promise<number> {
  return (await base.select('calls.id').limit(bound).execute()).length;
}

/** The rows of these ids, in the ids' order. */
async function rowsInOrder(db: Kysely<Database>, ids: string[]): Promise<CallRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('calls').selectAll().where('id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
