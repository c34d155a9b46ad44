/**
 * Full-text search over a call's summary and transcript, kept by the database itself so
 * every writer (upserts, syncs, backfills, deletes) updates it in the same transaction as the call.
 *
 * The document is the summary followed by the transcript's spoken text (each entry's text,
 * content or message); a transcript that is not a JSON array is indexed as plain text. Both
 * databases stem English words (SQLite's porter tokenizer, PostgreSQL's 'english' configuration),
 * so "refunds" finds "refund".
 *
 * - SQLite: a contentless FTS5 table keyed by the call's rowid, kept by triggers. The snippets are
 *   cut in the application (search-snippet.ts), so the table stores no second copy of the text.
 *   Rowids of a table with a text primary key may change under VACUUM; the app never runs one,
 *   and whoever does must run this migration's backfill again.
 * - PostgreSQL: a tsvector column, set by a BEFORE trigger, under a partial GIN index.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** Longest text indexed per call: tsvector refuses documents above 1 MB, and no call speaks more. */
const MAX_DOCUMENT_CHARS = 200_000;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await upPostgres(db);
  else await upSqlite(db);
}

/** The document of a row (`r` is `new` in a trigger, the table in the backfill). */
const sqliteDocument = (r: string) => `substr(coalesce(${r}.summary, '') || ' ' || coalesce(
  case when json_valid(${r}.transcript) and json_type(${r}.transcript) = 'array'
    then (select group_concat(coalesce(json_extract(e.value, '$.text'), json_extract(e.value, '$.content'),
            json_extract(e.value, '$.message')), ' ')
          from json_each(${r}.transcript) e where e.type = 'object')
    else ${r}.transcript end, ''), 1, ${MAX_DOCUMENT_CHARS})`;

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  await sql`create virtual table calls_fts using fts5(body, content='', contentless_delete=1,
    tokenize='porter unicode61 remove_diacritics 2')`.execute(db);
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

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  await sql`alter table calls add column search_vector tsvector`.execute(db);
  // Immutable in effect (it reads only its arguments); a transcript that is not a JSON array is
  // indexed as plain text rather than refusing the call.
  await sql
    .raw(`create function call_search_document(transcript text, summary text) returns text
      language plpgsql immutable as $$
      declare body text;
      begin
        if transcript is null then
          body := '';
        else
          begin
            select string_agg(coalesce(e->>'text', e->>'content', e->>'message'), ' ') into body
              from jsonb_array_elements(transcript::jsonb) e where jsonb_typeof(e) = 'object';
          exception when others then
            body := transcript;
          end;
        end if;
        return left(coalesce(summary, '') || ' ' || coalesce(body, ''), ${MAX_DOCUMENT_CHARS});
      end $$`)
    .execute(db);
  await sql`create function calls_search_vector_update() returns trigger language plpgsql as $$
      begin
        new.search_vector := case when new.transcript is null and new.summary is null then null
          else to_tsvector('english', call_search_document(new.transcript, new.summary)) end;
        return new;
      end $$`.execute(db);
  await sql`create trigger calls_search_vector before insert or update of transcript, summary on calls
      for each row execute function calls_search_vector_update()`.execute(db);
  await sql`update calls set search_vector = to_tsvector('english', call_search_document(transcript, summary))
      where transcript is not null or summary is not null`.execute(db);
  await sql`create index calls_search on calls using gin (search_vector) where search_vector is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop trigger calls_search_vector on calls`.execute(db);
    await sql`drop function calls_search_vector_update()`.execute(db);
    await sql`drop function call_search_document(text, text)`.execute(db);
    await sql`alter table calls drop column search_vector`.execute(db);
    return;
  }
  for (const trigger of ['calls_fts_insert', 'calls_fts_delete', 'calls_fts_update'])
    await sql.raw(`drop trigger ${trigger}`).execute(db);
  await sql`drop table calls_fts`.execute(db);
}
