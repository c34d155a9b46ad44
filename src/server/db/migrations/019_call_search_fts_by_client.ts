/**
 * SQLite: the word search's index keyed by client. Until now a search asked FTS5 for
 * every client's matches and dropped the other clients' afterwards, row by row: a 41-call client's
 * search cost what the whole instance's matches cost, and a word common in another client's calls
 * answered measurably slower than an absent one (a timing oracle on other tenants' data).
 *
 * The table gains a second column, `client`, holding one synthetic token per call: its client's id
 * written in hex between `c` and `x` (`'c' || lower(hex(client_id)) || 'x'`), one token whatever the
 * id holds, never a word of speech, and ending in a letter no stemming rule touches. A search
 * matches `client : "c…x" AND body : (…)`; FTS5 intersects the two doclists by seeking through the
 * larger one, so it reads the client's entries rather than every client's matches. Words of three
 * letters and more are also indexed by their first three (`prefix='3'`), so a three-letter prefix
 * search (the shortest the search language accepts now) is one doclist intersected the same way
 * instead of every term starting so merged across all clients.
 *
 * The app writes the same token (src/server/calls/call-search.ts `clientToken`): keep them equal.
 * PostgreSQL needs nothing here: migration 018 keys its index by client already.
 *
 * Rebuilding the index reads every call once (the backfill below); on a large instance this
 * migration takes as long as 011's backfill did.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** As in 011: tsvector's limit there, and no call speaks more. */
const MAX_DOCUMENT_CHARS = 200_000;

/** The document of a row, exactly as migration 011 indexes it (`r` is `new` or the table). */
const sqliteDocument = (r: string) => `substr(coalesce(${r}.summary, '') || ' ' || coalesce(
  case when json_valid(${r}.transcript) and json_type(${r}.transcript) = 'array'
    then (select group_concat(coalesce(json_extract(e.value, '$.text'), json_extract(e.value, '$.content'),
            json_extract(e.value, '$.message')), ' ')
          from json_each(${r}.transcript) e where e.type = 'object')
    else ${r}.transcript end, ''), 1, ${MAX_DOCUMENT_CHARS})`;

const clientToken = (r: string) => `'c' || lower(hex(${r}.client_id)) || 'x'`;

const TOKENIZER = `tokenize='porter unicode61 remove_diacritics 2'`;

async function dropIndex(db: Kysely<unknown>): Promise<void> {
  for (const trigger of ['calls_fts_insert', 'calls_fts_delete', 'calls_fts_update'])
    await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
  await sql`drop table if exists calls_fts`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  // PostgreSQL: already keyed by client (018); the tsvector column and its trigger stay as they are.
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await dropIndex(db);
  await sql
    .raw(`create virtual table calls_fts using fts5(body, client, content='', contentless_delete=1,
      ${TOKENIZER}, prefix='3')`)
    .execute(db);
  await sql
    .raw(`create trigger calls_fts_insert after insert on calls
      when new.transcript is not null or new.summary is not null
      begin
        insert into calls_fts(rowid, body, client) values (new.rowid, ${sqliteDocument('new')}, ${clientToken('new')});
      end`)
    .execute(db);
  await sql`create trigger calls_fts_delete after delete on calls
      begin delete from calls_fts where rowid = old.rowid; end`.execute(db);
  await sql
    .raw(`create trigger calls_fts_update after update of transcript, summary, client_id on calls
      begin
        delete from calls_fts where rowid = old.rowid;
        insert into calls_fts(rowid, body, client) select new.rowid, ${sqliteDocument('new')}, ${clientToken('new')}
          where new.transcript is not null or new.summary is not null;
      end`)
    .execute(db);
  await sql
    .raw(`insert into calls_fts(rowid, body, client)
      select calls.rowid, ${sqliteDocument('calls')}, ${clientToken('calls')} from calls
      where calls.transcript is not null or calls.summary is not null`)
    .execute(db);
}

/** Back to 011's index: one column, every client's words together. */
export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await dropIndex(db);
  await sql
    .raw(`create virtual table calls_fts using fts5(body, content='', contentless_delete=1, ${TOKENIZER})`)
    .execute(db);
  await sql
    .raw(`create trigger calls_fts_insert after insert on calls
      when new.transcript is not null or new.summary is not null
      begin insert into calls_fts(rowid, body) values (new.rowid, ${sqliteDocument('new')}); end`)
    .execute(db);
  await sql`create trigger calls_fts_delete after delete on calls
      begin delete from calls_fts where rowid = old.rowid; end`.execute(db);
  await sql
    .raw(`create trigger calls_fts_update after update of transcript, summary on calls
      begin
        delete from calls_fts where rowid = old.rowid;
        insert into calls_fts(rowid, body) select new.rowid, ${sqliteDocument('new')}
          where new.transcript is not null or new.summary is not null;
      end`)
    .execute(db);
  await sql
    .raw(`insert into calls_fts(rowid, body) select calls.rowid, ${sqliteDocument('calls')} from calls
      where calls.transcript is not null or calls.summary is not null`)
    .execute(db);
}
