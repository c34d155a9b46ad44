/**
 * SQLite: every indexed word is the client's own term. Until now the FTS5 table held one term per
 * word for all clients together, ANDed with a `client` token (019): a client's search still read
 * the other clients' entries of its words. bm25 counts each term's documents across the whole
 * table, and a prefix ("refu*") merges every matching term's list before the client's token
 * narrows it, so the call log's best match slowed as other clients' calls grew (27 → 65 ms for a
 * 41-call client beside 80,000 calls) and a prefix of a word only another client said answered
 * slower than an absent one (a timing oracle on other tenants' words).
 *
 * Each word of the document is now written with its client's key in front, `c` + the last 20 hex
 * digits of hex(client_id) (zero-padded) + `x`, 22 characters: "refund" of one client is the term
 * `c…xrefund`, another client's is another term with its own list. A search looks up
 * `c…xrefund`, and its bm25 statistics, its prefixes and its phrases are the client's alone. The
 * key goes in by SQL alone (no custom tokenizer in SQLite here): the separators people write are
 * turned into spaces, runs of spaces collapsed, and the key put after each space. Porter stems the
 * end of a token, so the key leaves stemming as it was for words up to 42 letters (porter's limit
 * is 64); a word after a separator not listed here (an emoji) is indexed without the key and
 * found by no search. The prefix index covers the key and three letters (25), as '3' did before.
 *
 * The app writes the same key (src/server/calls/read/call-search.ts `searchTermKey`): keep them
 * equal. The rowid stays 030's (time-ordered); the `client` column goes. PostgreSQL needs nothing:
 * its GIN index is on (client_id, search_vector) since 018. The upgrade rebuilds the index,
 * reading every call once, as 030 did.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** As in 011, 019 and 030. */
const MAX_DOCUMENT_CHARS = 200_000;

/** The document of a row as 030 indexes it (`r` is `new`, `old` or the table). Frozen as of 030. */
const sqliteDocument = (r: string) => `substr(coalesce(${r}.summary, '') || ' ' || coalesce(
  case when json_valid(${r}.transcript) and json_type(${r}.transcript) = 'array'
    then (select group_concat(coalesce(json_extract(e.value, '$.text'), json_extract(e.value, '$.content'),
            json_extract(e.value, '$.message')), ' ')
          from json_each(${r}.transcript) e where e.type = 'object')
    else ${r}.transcript end, ''), 1, ${MAX_DOCUMENT_CHARS})`;

/** The client's key of a row: fixed length, letters and hex digits only (one token with the word). */
const termKey = (r: string) =>
  `('c' || substr('00000000000000000000' || lower(hex(${r}.client_id)), -20) || 'x')`;

/**
 * What separates words in speech and transcripts, turned into a space so the key can go in front
 * of the next word. unicode61 treats them all as separators already, so tokens are unchanged.
 */
const SEPARATORS = [
  ...'\t\n\r.,;:!?\'"()[]{}/\\-_+=*&%$#@~`^|<>',
  '\u00a0',
  '\u00ab',
  '\u00bb',
  '\u00b7',
  '\u00bf',
  '\u00a1',
  '\u2013',
  '\u2014',
  '\u2018',
  '\u2019',
  '\u201c',
  '\u201d',
  '\u2022',
  '\u2026',
  '\u3000',
];

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** The document with every word keyed by its client: `key || replace(spaced, ' ', ' ' || key)`. */
function keyedDocument(r: string): string {
  let text = sqliteDocument(r);
  for (const separator of SEPARATORS) text = `replace(${text}, ${literal(separator)}, ' ')`;
  // Six halvings collapse a run of up to 64 spaces; a longer one leaves a lone key, no word.
  for (let i = 0; i < 6; i++) text = `replace(${text}, '  ', ' ')`;
  return `${termKey(r)} || replace(${text}, ' ', ' ' || ${termKey(r)})`;
}

/** The FTS5 rowid of a call, as 030 made it: ordered by time. */
const searchKey = (r: string) => `(${r}.created_at * 1048576 + (${r}.rowid & 1048575))`;

const TOKENIZER = `tokenize='porter unicode61 remove_diacritics 2'`;

async function dropFts(db: Kysely<unknown>): Promise<void> {
  for (const trigger of ['calls_fts_insert', 'calls_fts_delete', 'calls_fts_update'])
    await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
  await sql`drop table if exists calls_fts`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await dropFts(db);
  await sql
    .raw(
      `create virtual table calls_fts using fts5(body, content='', contentless_delete=1, ${TOKENIZER}, prefix='25')`,
    )
    .execute(db);
  await sql
    .raw(`create trigger calls_fts_insert after insert on calls
      when new.transcript is not null or new.summary is not null
      begin
        insert or ignore into calls_fts(rowid, body) values (${searchKey('new')}, ${keyedDocument('new')});
      end`)
    .execute(db);
  await sql
    .raw(`create trigger calls_fts_delete after delete on calls
      begin delete from calls_fts where rowid = ${searchKey('old')}; end`)
    .execute(db);
  await sql
    .raw(`create trigger calls_fts_update after update of transcript, summary, client_id, created_at on calls
      begin
        delete from calls_fts where rowid = ${searchKey('old')};
        insert or ignore into calls_fts(rowid, body) select ${searchKey('new')}, ${keyedDocument('new')}
          where new.transcript is not null or new.summary is not null;
      end`)
    .execute(db);
  await sql
    .raw(`insert or ignore into calls_fts(rowid, body)
      select ${searchKey('calls')}, ${keyedDocument('calls')} from calls
      where calls.transcript is not null or calls.summary is not null`)
    .execute(db);
}

/** Back to 030's index: every client's words together, the client as a token beside them. */
export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await dropFts(db);
  const clientToken = (r: string) => `'c' || lower(hex(${r}.client_id)) || 'x'`;
  await sql
    .raw(`create virtual table calls_fts using fts5(body, client, content='', contentless_delete=1,
      ${TOKENIZER}, prefix='3')`)
    .execute(db);
  await sql
    .raw(`create trigger calls_fts_insert after insert on calls
      when new.transcript is not null or new.summary is not null
      begin
        insert or ignore into calls_fts(rowid, body, client) values (${searchKey('new')}, ${sqliteDocument('new')}, ${clientToken('new')});
      end`)
    .execute(db);
  await sql
    .raw(`create trigger calls_fts_delete after delete on calls
      begin delete from calls_fts where rowid = ${searchKey('old')}; end`)
    .execute(db);
  await sql
    .raw(`create trigger calls_fts_update after update of transcript, summary, client_id, created_at on calls
      begin
        delete from calls_fts where rowid = ${searchKey('old')};
        insert or ignore into calls_fts(rowid, body, client) select ${searchKey('new')}, ${sqliteDocument('new')}, ${clientToken('new')}
          where new.transcript is not null or new.summary is not null;
      end`)
    .execute(db);
  await sql
    .raw(`insert or ignore into calls_fts(rowid, body, client)
      select ${searchKey('calls')}, ${sqliteDocument('calls')}, ${clientToken('calls')} from calls
      where calls.transcript is not null or calls.summary is not null`)
    .execute(db);
}
