/**
 * Reading the client's activity log: a page of lines newest first, or every line of a
 * filter in keyset batches for the CSV, each with the person's name. The name comes from the user
 * row; for a removed user, from the line that recorded the removal (its detail keeps the name);
 * for lines nobody signed in wrote (an agency admin's view, a failed sign-in of an unknown
 * person), from the line's own detail. Lines past ACTIVITY_RETENTION_DAYS are deleted by
 * housekeeping, in batches.
 */
import type { Kysely } from 'kysely';
import type { ActivityActionName, ActivityItem } from '../../contract/activity';
import { isoTime } from '../../contract/common';
import type { Database } from '../db/schema';

export const ACTIVITY_RETENTION_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;
const PRUNE_BATCH = 1_000;

export interface ActivityFilter {
  userId?: string;
  action?: ActivityActionName;
}

interface LineRow {
  id: string;
  at: number | string;
  user_id: string | null;
  action: string;
  detail: string | null;
  user_name: string | null;
}

function linesOf(db: Kysely<Database>, clientId: string, filter: ActivityFilter) {
  return db
    .selectFrom('client_activity as a')
    .where('a.client_id', '=', clientId)
    .$if(filter.userId !== undefined, (q) => q.where('a.user_id', '=', filter.userId ?? ''))
    .$if(filter.action !== undefined, (q) => q.where('a.action', '=', filter.action ?? ''));
}

function lines(db: Kysely<Database>, clientId: string, filter: ActivityFilter) {
  return linesOf(db, clientId, filter).select(['a.id', 'a.at', 'a.user_id', 'a.action', 'a.detail']);
}

/**
 * The people's names for the rows read, in one query for those rows only. A join in the page's
 * own query let PostgreSQL's planner join and sort the client's whole year of lines before taking
 * a page (bench --teams: 177 ms p50 over 200,000 lines, against 0.8 ms for the page alone).
 */
async function withNames(
  db: Kysely<Database>,
  clientId: string,
  rows: Omit<LineRow, 'user_name'>[],
): Promise<LineRow[]> {
  const ids = [...new Set(rows.flatMap((r) => (r.user_id ? [r.user_id] : [])))];
  const users = ids.length
    ? await db
        .selectFrom('client_users')
        .select(['id', 'name'])
        .where('client_id', '=', clientId)
        .where('id', 'in', ids)
        .execute()
    : [];
  const names = new Map(users.map((u) => [u.id, u.name]));
  return rows.map((r) => ({ ...r, user_name: (r.user_id && names.get(r.user_id)) || null }));
}

function parseDetail(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? // typeof says only "object"; a parsed non-array object is a string-keyed record
        (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

const textOf = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);

/**
 * The names removed users had, by id, for the ids of `rows` without a user row: the removal's
 * line keeps `targetId` and `name` (users-routes.ts).
 */
async function removedNames(
  db: Kysely<Database>,
  clientId: string,
  rows: LineRow[],
): Promise<Map<string, string>> {
  const missing = [...new Set(rows.filter((r) => r.user_id && !r.user_name).map((r) => r.user_id ?? ''))];
  const names = new Map<string, string>();
  if (missing.length === 0) return names;
  const removals = await db
    .selectFrom('client_activity')
    .select('detail')
    .where('client_id', '=', clientId)
    .where('action', 'in', ['user_removed', 'invite_revoked'])
    .execute();
  for (const { detail } of removals) {
    const parsed = parseDetail(detail);
    const id = textOf(parsed?.targetId);
    const name = textOf(parsed?.name) ?? textOf(parsed?.email);
    if (id && name && missing.includes(id)) names.set(id, name);
  }
  return names;
}

function toItem(row: LineRow, removed: Map<string, string>): ActivityItem {
  const detail = parseDetail(row.detail);
  const agencyName = row.action === 'view_as_client' ? textOf(detail?.adminName) : null;
  const userName =
    row.user_name ??
    (row.user_id ? removed.get(row.user_id) : undefined) ??
    (agencyName ? `${agencyName} (agency)` : null) ??
    textOf(detail?.email);
  return {
    at: isoTime(row.at) ?? '',
    userId: row.user_id,
    userName,
    // The column is plain text; rows are written only with ActivityActionName values
    action: row.action as ActivityActionName,
    detail,
  };
}

/**
 * Lines counted for a page's total: past this many the answer says "10,000+". Counting a year of
 * a busy front desk's lines (200,000) cost PostgreSQL about 100 ms a page (bench --teams), and
 * nobody reads an exact count that size; the page itself is read from the index either way.
 */
export const ACTIVITY_COUNT_BOUND = 10_000;

export async function activityPage(
  db: Kysely<Database>,
  clientId: string,
  filter: ActivityFilter,
  page: number,
  limit: number,
  countBound = ACTIVITY_COUNT_BOUND,
): Promise<{ items: ActivityItem[]; total: number; totalIsLowerBound: boolean }> {
  const [lineRows, count] = await Promise.all([
    lines(db, clientId, filter)
      .orderBy('a.at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    db
      .selectFrom(
        linesOf(db, clientId, filter)
          .select('a.id')
          .limit(countBound + 1)
          .as('counted'),
      )
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const rows = await withNames(db, clientId, lineRows);
  const removed = await removedNames(db, clientId, rows);
  const counted = Number(count.n);
  return {
    items: rows.map((r) => toItem(r, removed)),
    total: Math.min(counted, countBound),
    totalIsLowerBound: counted > countBound,
  };
}

/** Every line of the filter, newest first, in keyset batches (never all at once). */
export async function* activityBatches(
  db: Kysely<Database>,
  clientId: string,
  filter: ActivityFilter,
  batch = 2_000,
): AsyncGenerator<ActivityItem[]> {
  let after: { at: number; id: string } | null = null;
  for (;;) {
    const from: { at: number; id: string } | null = after;
    const lineRows = await lines(db, clientId, filter)
      .$if(from !== null, (q) =>
        q.where((eb) =>
          eb.or([
            eb('a.at', '<', from?.at ?? 0),
            eb.and([eb('a.at', '=', from?.at ?? 0), eb('a.id', '<', from?.id ?? '')]),
          ]),
        ),
      )
      .orderBy('a.at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(batch)
      .execute();
    if (lineRows.length === 0) return;
    const rows = await withNames(db, clientId, lineRows);
    const removed = await removedNames(db, clientId, rows);
    yield rows.map((r) => toItem(r, removed));
    if (rows.length < batch) return;
    const last: LineRow = rows[rows.length - 1];
    after = { at: Number(last.at), id: last.id };
  }
}

/** Deletes lines older than the retention, a batch at a time so no delete holds a long lock. */
export async function pruneActivity(db: Kysely<Database>, now: number): Promise<number> {
  const cutoff = now - ACTIVITY_RETENTION_DAYS * DAY_MS;
  let total = 0;
  for (;;) {
    const ids = await db
      .selectFrom('client_activity')
      .select('id')
      .where('at', '<', cutoff)
      .limit(PRUNE_BATCH)
      .execute();
    if (ids.length === 0) return total;
    const result = await db
      .deleteFrom('client_activity')
      .where(
        'id',
        'in',
        ids.map((r) => r.id),
      )
      .executeTakeFirst();
    total += Number(result.numDeletedRows);
    if (ids.length < PRUNE_BATCH) return total;
  }
}
