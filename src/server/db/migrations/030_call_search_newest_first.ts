/**
 * The call log's search answers newest first, and its duration sort reaches the first
 * page from an index.
 *
 * SQLite: the FTS5 table is rebuilt with a rowid ordered by time, `created_at * 2^20 + (calls.rowid
 * & (2^20 - 1))` (the call's key below). FTS5 hands out a query's matches in rowid order and
 * stops when the statement stops, so `match … order by rowid desc limit 26` reads the newest 26
 * matches and no more, however many there are; a window is a rowid range. The low 20 bits of the
 * call's own rowid tell calls of the same millisecond apart (two calls of one client collide only
 * if they share the millisecond and their rowids differ by a multiple of 2^20; the insert then
 * keeps the first in the index and the call is still listed, as `or ignore` says). created_at
 * in ms stays below 2^43 until the year 2248, so the key fits in 63 bits. A row is found back from
 * its key by (client_id, created_at), the log's index, and the low bits. The `client` column and
 * the tokenizer stay as migration 019 made them.
 *
 * Both: an index on (client_id, duration_seconds, id) for the log sorted by duration (274–737 ms
 * on PostgreSQL for the 1M-call client's first page, which sorted every call of its window), and
 * on (client_id, from_number) and (client_id, to_number), so a full number typed any way is a few
 * index reads (call-search.ts `wholeNumberForms`) rather than a scan of the client's calls.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** As in 011 and 019. */
const MAX_DOCUMENT_CHARS = 200_000;

const sqliteDocument = (r: string) => `substr(coalesce(${r}.summary, '') || ' ' || coalesce(
  case when json_valid(${r}.transcript) and json_type(${r}.transcript) = 'array'
    then (select group_concat(coalesce(json_extract(e.value, '$.text'), json_extract(e.value, '$.content'),
            json_extract(e.value, '$.message')), ' ')
          from json_each(${r}.transcript) e where e.type = 'object')
    else ${r}.transcript end, ''), 1, ${MAX_DOCUMENT_CHARS})`;

const clientToken = (r: string) => `'c' || lower(hex(${r}.client_id)) || 'x'`;

/** The FTS5 rowid of a call: ordered by time (src/server/calls/read/call-search.ts `searchKey`). */
const searchKey = (r: string) => `(${r}.created_at * 1048576 + (${r}.rowid & 1048575))`;

const TOKENIZER = `tokenize='porter unicode61 remove_diacritics 2'`;

async function dropFts(db: Kysely<unknown>): Promise<void> {
  for (const trigger of ['calls_fts_insert', 'calls_fts_delete', 'calls_fts_update'])
    await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
  await sql`drop table if exists calls_fts`.execute(db);
}

async function createFts(db: Kysely<unknown>, key: (r: string) => string, watched: string): Promise<void> {
  await sql
    .raw(`create virtual table calls_fts using fts5(body, client, content='', contentless_delete=1,
      ${TOKENIZER}, prefix='3')`)
    .execute(db);
  await sql
    .raw(`create trigger calls_fts_insert after insert on calls
      when new.transcript is not null or new.summary is not null
      begin
        insert or ignore into calls_fts(rowid, body, client) values (${key('new')}, ${sqliteDocument('new')}, ${clientToken('new')});
      end`)
    .execute(db);
  await sql
    .raw(`create trigger calls_fts_delete after delete on calls
      begin delete from calls_fts where rowid = ${key('old')}; end`)
    .execute(db);
  await sql
    .raw(`create trigger calls_fts_update after update of ${watched} on calls
      begin
        delete from calls_fts where rowid = ${key('old')};
        insert or ignore into calls_fts(rowid, body, client) select ${key('new')}, ${sqliteDocument('new')}, ${clientToken('new')}
          where new.transcript is not null or new.summary is not null;
      end`)
    .execute(db);
  await sql
    .raw(`insert or ignore into calls_fts(rowid, body, client)
      select ${key('calls')}, ${sqliteDocument('calls')}, ${clientToken('calls')} from calls
      where calls.transcript is not null or calls.summary is not null`)
    .execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists calls_client_duration on calls (client_id, duration_seconds, id)`.execute(
    db,
  );
  await sql`create index if not exists calls_client_from on calls (client_id, from_number)`.execute(db);
  await sql`create index if not exists calls_client_to on calls (client_id, to_number)`.execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await dropFts(db);
  await createFts(db, searchKey, 'transcript, summary, client_id, created_at');
}

/** Back to 019's index, keyed by the call's rowid. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ['calls_client_duration', 'calls_client_from', 'calls_client_to'])
    await sql.raw(`drop index if exists ${index}`).execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await dropFts(db);
  await createFts(db, (r) => `${r}.rowid`, 'transcript, summary, client_id');
}
