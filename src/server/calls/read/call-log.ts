/**
 * The call log (SPEC §7 GET …/calls): its filters, search, sorting and paging, shared by
 * the client, the admin, the demo and the export. A page is read in two steps: the ids of the
 * page in order (an index walk, or the ranked matches), then those rows in full, so no sort ever
 * carries whole transcripts.
 */

import { type AliasedSelectQueryBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import {
  type CallFilterQuery,
  type CallSort,
  type CallsPage,
  type CallsQuery,
  encodeLogCursor,
  type SortOrder,
} from '../../../contract/calls';
import { paginationOf } from '../../../contract/common';
import { isRankable, type SearchQuery } from '../../../contract/search-query';
import { toCall } from '../../call-rows/call';
import { isPostgres } from '../../db/dialect';
import type { CallRow, ClientRow, Database } from '../../db/schema';
import { badRequest } from '../../http/errors';
import { localDaysWindow, rollingWindow } from '../../time/date-windows';
import { type StatusTotals, totalsByStatus } from './call-queries';
import {
  callOfSearchKey,
  type LogSearch,
  logSearchOf,
  postgresMatch,
  postgresRank,
  SEARCH_KEY_SHIFT,
  searchCondition,
  sqliteMatchesByTime,
} from './call-search';
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

/**
 * How a log is ordered: newest first unless asked otherwise, with a search too (people
 * search a log to find a call, usually a recent one); best match first only when asked for
 * (`sort=relevance`), for a word search with nothing else to match.
 */
export function logOrder(
  query: CallFilterQuery,
  search: LogSearch | null,
): { sort: CallSort; order: SortOrder } {
  const sort = query.sort ?? 'created';
  if (sort === 'relevance' && !isRankable(search)) return { sort: 'created', order: query.order ?? 'desc' };
  return { sort, order: query.order ?? 'desc' };
}

/** How filteredCalls leaves parts of the filter to the plan. */
interface FilterPlan {
  /** The word search is left to the caller's join (SQLite ranks only inside FTS5). */
  rankedSearch?: boolean;
  /**
   * The window is checked on each call, never looked up in the (client, created_at) index, so a
   * sort walks its own index and stops at the page (see DURATION_WALK_ABOVE).
   */
  windowByRow?: boolean;
}

/**
 * The calls a log lists: one client's (or, for the admin's export, every client's when
 * `clientId` is null), counted and verified, narrowed by the query's filters.
 */
export function filteredCalls(
  db: Kysely<Database>,
  clientId: string | null,
  query: CallFilterQuery,
  window: LogWindow,
  search: LogSearch | null,
  { rankedSearch = false, windowByRow = false }: FilterPlan = {},
) {
  let base = db.selectFrom('calls').where('calls.is_proxy', '=', 0).where('calls.verified', '=', 1);
  if (clientId !== null) base = base.where('calls.client_id', '=', clientId);
  // `+column` (as for the quality figures below): no index condition on the window.
  const createdAt = windowByRow ? sql<number>`+calls.created_at` : sql.ref('calls.created_at');
  if (window.from !== null) base = base.where(createdAt, '>', window.from);
  if (window.to !== null) base = base.where(createdAt, '<=', window.to);
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

/** Calls in a window past which a duration sort walks its index rather than sort the window. */
const DURATION_WALK_ABOVE = 5_000;

/** A best-match candidate: its score (higher is better), its place from the newest, how many there are. */
interface ScoredCandidate {
  id: string;
  created_at: number;
  score: number;
  newest: number;
  matches: number;
}

/**
 * PostgreSQL: how many of the log's newest calls best match reads in time order before it leaves
 * the plan to the planner. A word said in one call of 100 or more has its newest 1,000 matches
 * among them; the planner, guessing from word statistics, took the GIN index and sorted every match
 * of a phrase whose words it took for unrelated (66,667 for "damaged parcel", 435 ms).
 */
const RANK_WALK_CALLS = 100_000;

/**
 * A page of candidates, best first, within the newest LOG_COUNT_BOUND (a bound + 1st only counts),
 * with how many candidates there are.
 */
async function bestFirst(
  db: Kysely<Database>,
  scored: AliasedSelectQueryBuilder<ScoredCandidate, 'r'>,
  limit: number,
  offset: number,
): Promise<{ ids: string[]; matches: number }> {
  const page = (n: number, from: number) =>
    db
      .selectFrom(scored)
      .select(['r.id', 'r.matches'])
      .where('r.newest', '<=', LOG_COUNT_BOUND)
      .orderBy('r.score', 'desc')
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(n)
      .offset(from)
      .execute();
  const rows = await page(limit, offset);
  // A page past the last candidate has no row to carry the count; the first page's first row has.
  const counted = rows.length > 0 || offset === 0 ? rows : await page(1, 0);
  return { ids: rows.map((r) => r.id), matches: counted.length > 0 ? Number(counted[0].matches) : 0 };
}

/**
 * PostgreSQL: the log's calls with their tsvector, newest first, at most `walk` of them (all when
 * null), and those of them the words match, newest first. The words are checked outside the
 * walk's LIMIT, which the planner cannot push them into, so it reads (client_id, created_at)
 * backwards and stops as soon as the caller's own LIMIT is met.
 */
function postgresMatchesNewestFirst(
  db: Kysely<Database>,
  calls: Filtered,
  words: SearchQuery,
  walk: number | null,
) {
  const columns = calls.select([
    'calls.id',
    'calls.created_at',
    sql<string>`calls.search_vector`.as('vector'),
  ]);
  const scope =
    walk === null
      ? columns
      : columns.orderBy('calls.created_at', 'desc').orderBy('calls.id', 'desc').limit(walk);
  return db
    .selectFrom(scope.as('w'))
    .selectAll('w')
    .where(postgresMatch(words, sql.ref('w.vector')))
    .orderBy('w.created_at', 'desc')
    .orderBy('w.id', 'desc');
}

/**
 * A best-match page's ids: the newest LOG_COUNT_BOUND matches, the very ones the bounded
 * count sees, ranked best first and paged by number within them; ranking every match cost seconds
 * for a common word. `calls`: the log's calls, filtered but not searched. `matches` is how many
 * there are, up to the bound and one more.
 */
async function rankedPage(
  db: Kysely<Database>,
  calls: Filtered,
  clientId: string,
  words: SearchQuery,
  window: LogWindow,
  limit: number,
  offset: number,
): Promise<{ ids: string[]; matches: number }> {
  const matchCount = sql<number>`count(*) over ()`.as('matches');
  if (!isPostgres(db)) {
    // FTS5 walks its time-ordered rowids from the newest, bm25 beside each, and stops at the bound.
    const candidates = calls
      .innerJoin(sqliteMatchesByTime(words, clientId, window.from, window.to, true).as('f'), (join) =>
        join.on(callOfSearchKey(sql.ref('f.k'), clientId)),
      )
      .select([
        'calls.id',
        'calls.created_at',
        sql<number>`f.k`.as('k'),
        sql<number>`f.fts_rank`.as('fts_rank'),
      ])
      .orderBy(sql`f.k`, 'desc')
      .limit(LOG_COUNT_BOUND + 1);
    const scored = db.selectFrom(candidates.as('c')).select([
      'c.id',
      'c.created_at',
      // bm25 is lower for a better match.
      sql<number>`-c.fts_rank`.as('score'),
      sql<number>`row_number() over (order by c.k desc)`.as('newest'),
      matchCount,
    ]);
    return bestFirst(db, scored.as('r'), limit, offset);
  }
  // The candidates carry their tsvector out, so ts_rank runs for them only. `walk`: among the newest
  // RANK_WALK_CALLS calls, read backwards along (client_id, created_at, id) (the words are checked
  // outside that LIMIT, which the planner cannot push them into); else the planner's plan.
  const ranked = (walk: boolean) => {
    const candidates = postgresMatchesNewestFirst(db, calls, words, walk ? RANK_WALK_CALLS : null).limit(
      LOG_COUNT_BOUND + 1,
    );
    const scored = db
      .selectFrom(candidates.as('c'))
      .select([
        'c.id',
        'c.created_at',
        postgresRank(words, sql.ref('c.vector')).as('score'),
        sql<number>`row_number() over (order by c.created_at desc, c.id desc)`.as('newest'),
        matchCount,
      ]);
    return bestFirst(db, scored.as('r'), limit, offset);
  };
  const walked = await ranked(true);
  // Past the bound within the walk: those are the newest. Else the word is rarer than the walk
  // assumes and the planner's plan (the GIN index, for a rare word) finds them.
  if (walked.matches > LOG_COUNT_BOUND) return walked;
  return ranked(false);
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
 * A searched or quality-filtered log counts its calls exactly up to this many: past it
 * the total is this bound with `totalIsLowerBound` ("of 1,000+"), and its pages past the bound are
 * read by keyset only (`after`). A best-match search ranks the newest this many.
 */
export const LOG_COUNT_BOUND = 1000;
/** The quality filters' bound: the same. */
export const QUALITY_COUNT_BOUND = LOG_COUNT_BOUND;

type ColumnSort = Exclude<CallSort, 'relevance'>;

/** Where a keyset page starts: after this value of the sort column and this id. */
interface Keyset {
  value: number;
  id: string;
}

/** A page's ids in the order of a column (and id, so pages never overlap), from `offset` or after a keyset. */
async function columnPage(
  base: Filtered,
  sort: ColumnSort,
  order: SortOrder,
  limit: number,
  at: { offset: number } | { after: Keyset },
): Promise<string[]> {
  const column = `calls.${SORT_COLUMNS[sort]}` as const;
  let q = base.select('calls.id').orderBy(column, order).orderBy('calls.id', order).limit(limit);
  if ('after' in at) {
    const { value, id } = at.after;
    const past = order === 'desc' ? sql.raw('<') : sql.raw('>');
    // The plain bound lets the index seek; the row comparison breaks ties by id.
    q = q
      .where(column, order === 'desc' ? '<=' : '>=', value)
      .where(sql<SqlBool>`(${sql.ref(column)}, calls.id) ${past} (${value}, ${id})`);
  } else q = q.offset(at.offset);
  return (await q.execute()).map((r) => r.id);
}

/**
 * Calls a common word's newest-first page is looked for among, read backwards from the newest (or
 * from the keyset) before the planner's plan is left to find it.
 */
const NEWEST_WALK_CALLS = 20_000;

/**
 * PostgreSQL, a word said in more than LOG_COUNT_BOUND calls of the window, newest first: the page
 * among the newest NEWEST_WALK_CALLS calls, read backwards along (client_id, created_at) with the
 * words checked outside that LIMIT (which the planner cannot push them into), so the walk stops at
 * the page. Left to the planner, it misjudges a word's share of one client's calls and ranks every
 * match by the GIN index then sorts (79 ms for "refund", 20,000 matches, at 10M calls). null when
 * the walk holds no full page (the word is rare among the newest calls): then the planner's plan.
 */
async function postgresNewestPage(
  db: Kysely<Database>,
  calls: Filtered,
  words: SearchQuery,
  limit: number,
  at: { offset: number } | { after: Keyset },
): Promise<string[] | null> {
  let scope = calls;
  if ('after' in at) {
    const { value, id } = at.after;
    scope = scope
      .where('calls.created_at', '<=', value)
      .where(sql<SqlBool>`(calls.created_at, calls.id) < (${value}, ${id})`);
  }
  const page = postgresMatchesNewestFirst(db, scope, words, NEWEST_WALK_CALLS)
    .limit(limit)
    .offset('offset' in at ? at.offset : 0);
  const ids = (await page.execute()).map((r) => r.id);
  return ids.length === limit ? ids : null;
}

/**
 * Calls a word search's bounded count first looks among, newest first: a word in a tenth of the
 * calls shows past the bound within them.
 */
const COUNT_WALK_CALLS = 12_000;

/**
 * PostgreSQL: whether a word is said in more than LOG_COUNT_BOUND of the newest COUNT_WALK_CALLS
 * calls (the walk stops at the bound's match). The GIN index builds the bitmap of every match of
 * the client before it counts one: 28–34 ms for a word in 100,000–200,000 calls; this walk ~7 ms.
 */
async function postgresCommonAmongNewest(
  db: Kysely<Database>,
  calls: Filtered,
  words: SearchQuery,
): Promise<boolean> {
  // Counted in the walk's own order: no sort above it, so it stops at the bound's match.
  const matches = await postgresMatchesNewestFirst(db, calls, words, COUNT_WALK_CALLS)
    .clearOrderBy()
    .limit(LOG_COUNT_BOUND + 1)
    .execute();
  return matches.length > LOG_COUNT_BOUND;
}

/**
 * SQLite, a word search newest first: FTS5 walks the client's matches from the newest (its rowid
 * is ordered by time, migration 030) and stops when the page (or the bounded count) is full, so a
 * common word costs what a rare one does. Ties within a millisecond list in the order of storing.
 */
async function sqliteNewestPage(
  db: Kysely<Database>,
  rankedBase: Filtered,
  clientId: string,
  words: SearchQuery,
  window: LogWindow,
  limit: number,
  at: { offset: number } | { after: Keyset },
): Promise<string[]> {
  let to = window.to;
  let tie = sql``;
  if ('after' in at) {
    const { value, id } = at.after;
    const row = await db
      .selectFrom('calls')
      .select(sql<number>`calls.rowid & ${sql.lit(SEARCH_KEY_SHIFT - 1)}`.as('bits'))
      .where('id', '=', id)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    if (!row || !Number.isInteger(value))
      throw badRequest('after: this cursor is not a page of this log', { after: 'Unknown cursor' });
    // Keys below the cursor's: created_at * 2^20 + its rowid's low bits, past 2^53, written out exactly.
    const key = BigInt(value) * BigInt(SEARCH_KEY_SHIFT) + BigInt(row.bits);
    to = to === null ? value : Math.min(to, value);
    tie = sql` and f.k < ${sql.raw(key.toString())}`;
  }
  const q = rankedBase
    .innerJoin(sqliteMatchesByTime(words, clientId, window.from, to).as('f'), (join) =>
      join.on(sql<SqlBool>`${callOfSearchKey(sql.ref('f.k'), clientId)}${tie}`),
    )
    .select('calls.id')
    .orderBy(sql`f.k`, 'desc')
    .limit(limit);
  return (await ('offset' in at ? q.offset(at.offset) : q).execute()).map((r) => r.id);
}

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
  const after = query.after;
  if (after && (after.sort !== sort || after.order !== order))
    throw badRequest('after: this cursor belongs to another order of the log; start again from page 1', {
      after: 'Cursor of another sort or order',
    });

  const offset = (page - 1) * limit;
  const at = after ? { after: { value: after.value, id: after.id } } : { offset };
  let ids: string[] = [];
  let total: number;
  let bounded: { lowerBound: boolean; fullPage: boolean } | undefined;
  if (search || hasQualityFilter(query)) {
    // Counted up to the bound ("of 1,000+"): an exact count of a common word read every match.
    if (sort === 'relevance' && search?.words) {
      // The newest LOG_COUNT_BOUND matches, ranked (rankedPage).
      if (after)
        throw badRequest('after: a best-match search is paged by page number', {
          after: 'Not with sort=relevance',
        });
      if (offset >= LOG_COUNT_BOUND)
        throw badRequest(
          `page: best match ranks the newest ${LOG_COUNT_BOUND.toLocaleString('en-US')} matches; sort by date to page further`,
          {
            page: `At most ${Math.ceil(LOG_COUNT_BOUND / limit)} with sort=relevance`,
          },
        );
      const found = await rankedPage(
        db,
        filteredCalls(db, clientId, query, window, null),
        clientId,
        search.words,
        window,
        Math.min(limit, LOG_COUNT_BOUND - offset),
        offset,
      );
      ids = found.ids;
      total = Math.min(found.matches, LOG_COUNT_BOUND);
      bounded = { lowerBound: found.matches > LOG_COUNT_BOUND, fullPage: false };
    } else {
      // Not a relevance sort here: `search` ranks only on the branch above
      const column = sort as ColumnSort;
      // A search's pages past the bound are read by keyset only; the quality filters'
      // still take a page number there too, as their tests and links do.
      if (search && !after && offset >= LOG_COUNT_BOUND)
        throw badRequest(
          `page: past the first ${LOG_COUNT_BOUND.toLocaleString('en-US')} calls, page with after=pagination.nextAfter`,
          {
            page: `At most ${Math.ceil(LOG_COUNT_BOUND / limit)} without after`,
          },
        );
      const fts = column === 'created' && order === 'desc' && isRankable(search) && !isPostgres(db);
      const rankedBase = fts
        ? filteredCalls(db, clientId, query, window, search, { rankedSearch: true })
        : base;
      const pageOf = (n: number, from: typeof at) =>
        fts
          ? sqliteNewestPage(
              db,
              rankedBase,
              clientId,
              // `fts` is true only when isRankable(search), so search has its words
              (search as { words: SearchQuery }).words,
              window,
              n,
              from,
            )
          : columnPage(base, column, order, n, from);
      let counted: number;
      if (fts) {
        [counted, ids] = await Promise.all([
          pageOf(LOG_COUNT_BOUND + 1, { offset: 0 }).then((r) => r.length),
          pageOf(limit, at),
        ]);
      } else {
        // Counted first. Past the bound the matches are common, and a walk in the page's order
        // finds a page at once; within it the page is read among the matches just found, by
        // their ids: a walk for a word nobody said read the whole window (310–775 ms newest first
        // on PostgreSQL's 1M-call client). On PostgreSQL a common word is seen among the newest
        // calls before its GIN index would build the bitmap of all of them.
        const words = isPostgres(db) && isRankable(search) ? search.words : null;
        const unsearched = words ? filteredCalls(db, clientId, query, window, null) : null;
        const common = !!words && !!unsearched && (await postgresCommonAmongNewest(db, unsearched, words));
        const matched = common
          ? []
          : await idsUpTo(base, LOG_COUNT_BOUND + 1, search ? null : 'calls.created_at');
        counted = common ? LOG_COUNT_BOUND + 1 : matched.length;
        if (counted > LOG_COUNT_BOUND) {
          const walked =
            words && unsearched && column === 'created' && order === 'desc'
              ? await postgresNewestPage(db, unsearched, words, limit, at)
              : null;
          ids = walked ?? (await pageOf(limit, at));
        } else if (counted > 0)
          ids = await columnPage(amongIds(db, clientId, matched), column, order, limit, at);
      }
      total = Math.min(counted, LOG_COUNT_BOUND);
      bounded = { lowerBound: counted > LOG_COUNT_BOUND, fullPage: ids.length === limit };
    }
  } else {
    // Without a search logOrder never picks the relevance sort
    const column = sort as ColumnSort;
    total = await countCalls(db, base, client, query, window, search);
    // A big window sorted by duration walks (client, duration) from the end asked for and stops at
    // the page; SQLite's planner, from average statistics, took the window's range and sorted all
    // of it instead (270 ms p50 for the 1M-call client's 60 days of a 10M-call set). A small
    // window is cheaper to sort than to find by that walk.
    const pageBase =
      column === 'duration' && total > DURATION_WALK_ABOVE
        ? filteredCalls(db, clientId, query, window, search, { windowByRow: true })
        : base;
    if (after) ids = await columnPage(pageBase, column, order, limit, at);
    else if (offset < total) {
      // Deep pages read from the other end of the order, so the last page is as cheap as the first.
      if (offset + limit > total / 2) {
        const take = Math.min(limit, total - offset);
        const reversed = order === 'desc' ? 'asc' : 'desc';
        ids = (
          await columnPage(pageBase, column, reversed, take, { offset: total - offset - take })
        ).reverse();
      } else {
        ids = await columnPage(pageBase, column, order, limit, { offset });
      }
    }
  }
  const rows = await rowsInOrder(db, ids);
  const calls = rows.map((row) => {
    const call = toCall(row);
    return search?.words ? { ...call, snippet: snippetOf(row, search.words) } : call;
  });
  const pagination = paginationOf(page, limit, total, bounded);
  const last = rows[rows.length - 1];
  if (last && rows.length === limit && sort !== 'relevance')
    pagination.nextAfter = encodeLogCursor({
      sort,
      order,
      value: Number(last[SORT_COLUMNS[sort]]),
      id: last.id,
    });
  return { calls, pagination };
}

/**
 * The ids of the calls the log lists, no more than `bound` of them (so their number is the count
 * up to the bound). `walk`: the order to read in. Without a search, newest first: a bare `limit`
 * let PostgreSQL read a quality filter's partial index from the client's first entry or scan the
 * table (1–3 s for a month of the 1M-call client), where the (client, created_at) index backward
 * stops after `bound` matches. A search's own index (GIN) finds its matches without an order.
 */
async function idsUpTo(
  base: Filtered,
  bound: number,
  walk: 'calls.created_at' | null = null,
): Promise<string[]> {
  const ids = base.select('calls.id').limit(bound);
  return (await (walk ? ids.orderBy(walk, 'desc') : ids).execute()).map((r) => r.id);
}

/** The client's calls with these ids (at most the bound's): a page among them reads the primary key. */
function amongIds(db: Kysely<Database>, clientId: string, ids: string[]): Filtered {
  return db.selectFrom('calls').where('calls.client_id', '=', clientId).where('calls.id', 'in', ids);
}

/** The rows of these ids, in the ids' order. */
async function rowsInOrder(db: Kysely<Database>, ids: string[]): Promise<CallRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('calls').selectAll().where('id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
