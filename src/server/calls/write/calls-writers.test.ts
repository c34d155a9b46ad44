/**
 * The calls table has one writer, calls/write/: a write elsewhere would skip its rules (each call
 * made fit to store, the after-write list in the same transaction) unnoticed. Reads are anyone's.
 * Writes of any kind are caught, aliased or not, in the query builder or in raw SQL.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = path.resolve(import.meta.dirname, '..', '..');
const WRITER = path.join(SERVER, 'calls', 'write') + path.sep;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === 'migrations' ? [] : sourceFiles(file);
    return file.endsWith('.ts') && !file.endsWith('.test.ts') ? [file] : [];
  });
}

/** Where a piece of code writes the calls table; empty when it does not. */
function callsTableWrites(source: string): string[] {
  const builder =
    /\b(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(\s*['"`]calls(\s+as\s+\w+)?['"`]/g;
  // A write in a template literal or SQL string: INSERT INTO / UPDATE / DELETE FROM / MERGE INTO calls.
  const raw = /\b((insert|replace|merge)(\s+or\s+\w+)?\s+into|update|delete\s+from)\s+"?calls"?(?![\w-])/gi;
  return [...source.matchAll(builder), ...source.matchAll(raw)].map((m) => m[0]);
}

describe('the calls table', () => {
  it('is written only in calls/write/', () => {
    const outside = sourceFiles(SERVER)
      .filter((file) => !file.startsWith(WRITER))
      .filter((file) => callsTableWrites(readFileSync(file, 'utf8')).length > 0)
      .map((file) => path.relative(SERVER, file));
    expect(outside).toEqual([]);
  });

  it('is found however a write names it', () => {
    const missed = [
      "db.updateTable('calls')",
      "trx.updateTable('calls as c')",
      "db.insertInto('calls')",
      "db.deleteFrom('calls')",
      "db.replaceInto('calls')",
      'sql`update calls set handled_at = 1`',
      'sql`delete from calls where id = ?`',
      'sql`insert into calls (id) values (?)`',
      'sql`merge into calls using x on true`',
      'sql`insert or replace into calls (id) values (?)`',
    ].filter((code) => callsTableWrites(code).length === 0);
    expect(missed).toEqual([]);
  });

  it('is not confused with reads or with tables that only contain the word', () => {
    const wrong = [
      "db.selectFrom('calls')",
      "db.updateTable('calls_fts')",
      "db.insertInto('call_rollups')",
      "db.deleteFrom('deleted_calls')",
      'sql`select id from calls where client_id = ?`',
      'sql`insert into calls_fts(calls_fts) values (1)`',
      '// it writes the calls of a client',
      '// live events are never turned into calls',
    ].filter((code) => callsTableWrites(code).length > 0);
    expect(wrong).toEqual([]);
  });
});
