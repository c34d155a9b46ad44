/**
 * What the call log's search box finds: words in a call's summary or transcript through
 * each database's full-text index, a phone number by its digits, a call by its id (ours or the
 * provider's) or by its reference (the start of our id, as the log, the drawer and e-mails show
 * it). The text is parsed once (contract/search-query.ts) and compiled per database, so
 * nothing typed is ever read as index syntax.
 *
 * A client's search reads only that client's index entries: on PostgreSQL through the
 * GIN index on (client_id, search_vector) (migration 018); on SQLite every indexed word is the
 * client's own term, its key in front (migration 038), so a search's lists, its bm25 statistics
 * and its prefixes hold that client's calls alone, whatever the other clients said.
 */
import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import {
  type SearchQuery,
  type TextSearch,
  textSearchOf,
  toFts5,
  toTsquery,
} from '../../../contract/search-query';
import { isPostgres } from '../../db/dialect';
import type { Database } from '../../db/schema';

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Hex digits of the client's id in its key: 80 bits, so two clients sharing a key is left to chance. */
const KEY_HEX_DIGITS = 20;

/**
 * The key in front of each of a client's indexed words (migration 038 writes
 * `'c' || substr(zeros || lower(hex(client_id)), -20) || 'x'`: the same): letters and hex digits,
 * so the key and the word are one token, and 22 characters, so porter still stems the word.
 */
export function searchTermKey(clientId: string): string {
  const hex = Buffer.from(clientId, 'utf8').toString('hex');
  return `c${hex.padStart(KEY_HEX_DIGITS, '0').slice(-KEY_HEX_DIGITS)}x`;
}

/** The same key in SQL, for a query over every client's calls (the admin's export). */
const searchTermKeyOfCalls = sql<string>`('c' || substr(${sql.lit('0'.repeat(KEY_HEX_DIGITS))} || lower(hex(calls.client_id)), ${sql.lit(-KEY_HEX_DIGITS)}) || 'x')`;

/** Stands for the client's key in a query text built before the key is known (SQL fills it in). */
const KEY_PLACEHOLDER = '\u0001';

/**
 * FTS5 query text for one client's search: each word as that client's term (its key in front).
 * The words come from the search parser (letters and digits only), each quoted, so nothing typed
 * is read as FTS5 syntax.
 */
export function fts5Match(words: SearchQuery, clientId: string): string {
  return keyedMatch(words, searchTermKey(clientId));
}

function keyedMatch(words: SearchQuery, key: string): string {
  const keyed = words.map((clause) =>
    clause.map((term) => ({ ...term, words: term.words.map((word) => `${key}${word}`) })),
  );
  return `body : (${toFts5(keyed)})`;
}

/**
 * SQLite: a call's FTS5 rowid, ordered by time (migration 030): created_at * 2^20 plus the low 20
 * bits of the call's rowid. FTS5 lists matches in rowid order, so newest first is its own order.
 */
export const SEARCH_KEY_SHIFT = 1_048_576;
export const searchKeyOfCalls = sql<number>`(calls.created_at * ${sql.lit(SEARCH_KEY_SHIFT)} + (calls.rowid & ${sql.lit(SEARCH_KEY_SHIFT - 1)}))`;

/**
 * SQLite: the call of an FTS5 key `key` (an SQL expression), as a join condition: its client's
 * calls of that millisecond (the log's index) with the same low bits of rowid.
 */
export function callOfSearchKey(key: Expression<number>, clientId: string): Expression<SqlBool> {
  return sql<SqlBool>`calls.client_id = ${clientId} and calls.created_at = (${key} >> 20) and (calls.rowid & ${sql.lit(SEARCH_KEY_SHIFT - 1)}) = (${key} & ${sql.lit(SEARCH_KEY_SHIFT - 1)})`;
}

/** PostgreSQL: whether the tsvector `vector` (the call's, or a subquery's column) has the words. */
export function postgresMatch(words: SearchQuery, vector: Expression<unknown>): Expression<SqlBool> {
  return sql<SqlBool>`${vector} @@ to_tsquery('english', ${toTsquery(words)})`;
}

/** The full-text condition alone, for the rows of `calls` (SQLite: through the FTS5 table by key). */
function wordsMatch(db: Kysely<Database>, words: SearchQuery, clientId: string | null): Expression<SqlBool> {
  return isPostgres(db)
    ? postgresMatch(words, sql.ref('calls.search_vector'))
    : clientId !== null
      ? sql<SqlBool>`${searchKeyOfCalls} in (select rowid from calls_fts where calls_fts match ${fts5Match(words, clientId)})`
      : // Every client's calls (the admin's export): each call's own client's terms, looked up per call.
        sql<SqlBool>`${searchKeyOfCalls} in (select rowid from calls_fts where calls_fts match replace(${keyedMatch(words, KEY_PLACEHOLDER)}, ${KEY_PLACEHOLDER}, ${searchTermKeyOfCalls}))`;
}

/**
 * Calls whose id starts with a reference (contract/call-reference.ts: eight lower-case hex digits,
 * so nothing in it is a LIKE wildcard). SQLite compares text byte by byte, so the id's primary key
 * answers the prefix as a range; PostgreSQL's collation may order punctuation in ways a range
 * cannot rely on, so there the prefix is a LIKE (byte-exact whatever the collation) within the
 * client's calls.
 */
function referenceMatch(db: Kysely<Database>, reference: string, table: 'c' | 'calls'): Expression<SqlBool> {
  const id = sql.ref(`${table}.id`);
  return isPostgres(db)
    ? sql<SqlBool>`${id} like ${`${reference}%`}`
    : sql<SqlBool>`(${id} >= ${reference} and ${id} < ${`${reference}~`})`;
}

/** A search as a user with masked numbers may run it (`numbersMaskedSearch`). */
export type LogSearch = TextSearch & { fullNumberOnly?: boolean };

/** A word of digits only: part of a number, not a word. */
const DIGITS_ONLY = /^\d+$/;

/**
 * The search of a user who sees masked numbers. Finding calls by a fragment of a number would tell
 * them the hidden digits one guess at a time (does "867" find the call whose number shows
 * "+1 212 ••• 0100"?), so for them a number matches only whole: the stored number exactly (with
 * or without its +), or its last ten digits or more (the national number, typed without the
 * country code). Digits-only words are not looked up in summaries and transcripts either, where
 * callers say their numbers. Words, call ids and a full number still find calls as before.
 */
export function numbersMaskedSearch(search: TextSearch): LogSearch {
  const words = search.words
    ?.map((clause) => clause.filter((term) => !term.words.some((word) => DIGITS_ONLY.test(word))))
    .filter((clause) => clause.length > 0);
  return { ...search, words: words && words.length > 0 ? words : null, fullNumberOnly: true };
}

/** What a log's search box text finds, for a user who sees numbers (or not). */
export function logSearchOf(text: string, numbersMasked: boolean): LogSearch {
  const search = textSearchOf(text);
  return numbersMasked ? numbersMaskedSearch(search) : search;
}

/** A typed number as the whole of a stored one (see `numbersMaskedSearch`). */
function wholeNumberMatch(phone: string): Expression<SqlBool> {
  const digits = phone.replace(/\D/g, '');
  const exact = [phone, `+${digits}`];
  const suffix = digits.length >= 10 ? `%${digits}` : null;
  const column = (name: 'from_number' | 'to_number') =>
    suffix
      ? sql<SqlBool>`(${sql.ref(`calls.${name}`)} in (${sql.join(exact)}) or ${sql.ref(`calls.${name}`)} like ${suffix})`
      : sql<SqlBool>`${sql.ref(`calls.${name}`)} in (${sql.join(exact)})`;
  return sql<SqlBool>`(${column('from_number')} or ${column('to_number')})`;
}

/**
 * The stored forms a full number typed any way may have: its digits with and without a
 * `+`, a ten-digit national number with the North American country code, `00…` as `+…`. Null for
 * fewer than ten digits (a part of a number, found by containment).
 */
export function wholeNumberForms(phone: string): string[] | null {
  const digits = phone.replace(/\D/g, '');
  if (digits.length < 10) return null;
  const forms = new Set([phone, digits, `+${digits}`]);
  if (digits.length === 10) forms.add(`+1${digits}`);
  if (digits.startsWith('00')) forms.add(`+${digits.slice(2)}`);
  return [...forms];
}

/**
 * A search that is (also) a number or an id, for one client, as the ids it finds: each part from
 * its own index (the primary key, (client_id, provider_call_id), (client_id, from_number) and
 * (client_id, to_number), the word index), so an id or a full number costs a few index reads
 * however many calls the client has. Null when a part has no index (a part of a number).
 */
function indexedParts(db: Kysely<Database>, search: LogSearch, clientId: string): Expression<SqlBool> | null {
  const parts: RawBuilder<unknown>[] = [];
  if (search.phone) {
    // For a reader of masked numbers too: each form is a whole number, never a part of one.
    const forms = wholeNumberForms(search.phone);
    if (!forms) return null;
    for (const column of ['from_number', 'to_number'] as const)
      parts.push(
        sql`select c.id from calls c where c.client_id = ${clientId} and ${sql.ref(`c.${column}`)} in (${sql.join(forms)})`,
      );
  }
  if (search.reference)
    parts.push(
      sql`select c.id from calls c where ${referenceMatch(db, search.reference, 'c')} and c.client_id = ${clientId}`,
    );
  if (search.callId) {
    parts.push(sql`select c.id from calls c where c.id = ${search.callId} and c.client_id = ${clientId}`);
    parts.push(
      sql`select c.id from calls c where c.client_id = ${clientId} and c.provider_call_id = ${search.callId}`,
    );
  }
  if (search.words)
    parts.push(
      isPostgres(db)
        ? sql`select c.id from calls c where c.client_id = ${clientId} and c.search_vector @@ to_tsquery('english', ${toTsquery(search.words)})`
        : sql`select c.id from ${sqliteMatchesByTime(search.words, clientId, null, null)} f join calls c on c.client_id = ${clientId} and c.created_at = (f.k >> 20) and (c.rowid & ${sql.lit(SEARCH_KEY_SHIFT - 1)}) = (f.k & ${sql.lit(SEARCH_KEY_SHIFT - 1)})`,
    );
  if (parts.length === 0) return null;
  return sql<SqlBool>`calls.id in (${sql.join(parts, sql` union all `)})`;
}

/** Whether a call of this client (null: of any client) matches the search: any of its words, number or id. */
export function searchCondition(
  db: Kysely<Database>,
  search: LogSearch,
  clientId: string | null,
): Expression<SqlBool> {
  if (clientId !== null && (search.phone || search.callId || search.reference)) {
    const indexed = indexedParts(db, search, clientId);
    if (indexed) return indexed;
  }
  const parts: Expression<SqlBool>[] = [];
  if (search.words) parts.push(wordsMatch(db, search.words, clientId));
  if (search.phone && search.fullNumberOnly) parts.push(wholeNumberMatch(search.phone));
  else if (search.phone) {
    const pattern = containing(search.phone);
    parts.push(
      sql<SqlBool>`(calls.from_number like ${pattern} escape '\\' or calls.to_number like ${pattern} escape '\\')`,
    );
  }
  if (search.callId)
    parts.push(sql<SqlBool>`(calls.id = ${search.callId} or calls.provider_call_id = ${search.callId})`);
  if (search.reference) parts.push(referenceMatch(db, search.reference, 'calls'));
  if (parts.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

/**
 * PostgreSQL: a relevance score for ranking (higher is better) of the tsvector `vector` (a column
 * reference: the call's, or a candidate's carried out of a subquery).
 */
export function postgresRank(words: SearchQuery, vector: Expression<unknown>) {
  // Normalisation 1 divides by the document's log length, as bm25 favours the shorter call.
  return sql<number>`ts_rank(${vector}, to_tsquery('english', ${toTsquery(words)}), 1)`;
}

/**
 * SQLite: the client's FTS5 matches newest first within created_at in (from, to] (null: open), as
 * keys `k`: a rowid range that FTS5 walks from its end and stops with the statement. `ranked`: each
 * with its bm25 rank `fts_rank` too (lower is better; it exists only inside the FTS5 query, and is
 * worked out only for the rows the statement takes). Its first row costs a pass over each term's
 * list (bm25's document frequencies): the client's own term, so the client's calls alone.
 */
export function sqliteMatchesByTime(
  words: SearchQuery,
  clientId: string,
  from: number | null,
  to: number | null,
  ranked = false,
) {
  const lo = from === null ? sql`` : sql` and rowid >= ${sql.lit((from + 1) * SEARCH_KEY_SHIFT)}`;
  const hi = to === null ? sql`` : sql` and rowid < ${sql.lit((to + 1) * SEARCH_KEY_SHIFT)}`;
  const rank = ranked ? sql`, bm25(calls_fts) as fts_rank` : sql``;
  return sql`(select rowid as k${rank} from calls_fts where calls_fts match ${fts5Match(words, clientId)}${lo}${hi})`;
}
