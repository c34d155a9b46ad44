/**
 * What the call log's search box finds (issue 15): words in a call's summary or transcript through
 * each database's full-text index, a phone number by its digits, a call by its id (ours or the
 * provider's). The text is parsed once (contract/search-query.ts) and compiled per database, so
 * nothing typed is ever read as index syntax.
 */
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import { type SearchQuery, type TextSearch, toFts5, toTsquery } from '../../contract/search-query';
import { isPostgres } from '../db/dialect';
import type { Database } from '../db/schema';

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The full-text condition alone, for the rows of `calls` (SQLite: through the FTS5 table by rowid). */
function wordsMatch(db: Kysely<Database>, words: SearchQuery): Expression<SqlBool> {
  return isPostgres(db)
    ? sql<SqlBool>`calls.search_vector @@ to_tsquery('english', ${toTsquery(words)})`
    : sql<SqlBool>`calls.rowid in (select rowid from calls_fts where calls_fts match ${toFts5(words)})`;
}

/** Whether a call matches the search: any of its words, number or id. */
export function searchCondition(db: Kysely<Database>, search: TextSearch): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [];
  if (search.words) parts.push(wordsMatch(db, search.words));
  if (search.phone) {
    const pattern = containing(search.phone);
    parts.push(
      sql<SqlBool>`(calls.from_number like ${pattern} escape '\\' or calls.to_number like ${pattern} escape '\\')`,
    );
  }
  if (search.callId)
    parts.push(sql<SqlBool>`(calls.id = ${search.callId} or calls.provider_call_id = ${search.callId})`);
  if (parts.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

/** PostgreSQL: a relevance score for ranking (higher is better). */
export function postgresRank(words: SearchQuery) {
  // Normalisation 1 divides by the document's log length, as bm25 favours the shorter call.
  return sql<number>`ts_rank(calls.search_vector, to_tsquery('english', ${toTsquery(words)}), 1)`;
}

/**
 * SQLite: the FTS5 matches with their bm25 rank (lower is better), to join on calls.rowid; the
 * rank exists only inside the FTS5 query.
 */
export function sqliteMatches(words: SearchQuery) {
  return sql`(select rowid as fts_rowid, rank as fts_rank from calls_fts where calls_fts match ${toFts5(words)})`;
}
