/**
 * The clients table has one gate, clients/: a query written elsewhere would bypass its rules
 * unnoticed. Reads and writes of any kind are caught, aliased (`'clients as c'`) or joined
 * (`innerJoin('clients', …)`), in the query builder or in raw SQL (sql`… from clients …`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = path.resolve(import.meta.dirname, '..');
const GATE = path.join(SERVER, 'clients') + path.sep;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === 'migrations' ? [] : sourceFiles(file);
    return file.endsWith('.ts') && !file.endsWith('.test.ts') ? [file] : [];
  });
}

/** Where a piece of code names the clients table; empty when it does not. */
function clientsTableUses(source: string): string[] {
  const builder =
    /\b(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|with|innerJoin|leftJoin|rightJoin|fullJoin|crossJoin|innerJoinLateral|leftJoinLateral)\(\s*(\[\s*)?['"`]clients(\s+as\s+\w+)?['"`]/g;
  // A table reference in a template literal or SQL string: FROM/JOIN/INTO/UPDATE clients.
  const raw = /\b(from|join|into|update|table)\s+"?clients"?(?![\w-])/gi;
  return [...source.matchAll(builder), ...source.matchAll(raw)].map((m) => m[0]);
}

describe('the clients table', () => {
  it('is read and written only in clients/', () => {
    const outside = sourceFiles(SERVER)
      .filter((file) => !file.startsWith(GATE))
      .filter((file) => clientsTableUses(readFileSync(file, 'utf8')).length > 0)
      .map((file) => path.relative(SERVER, file));
    expect(outside).toEqual([]);
  });

  it('is found however a query names it', () => {
    const found = [
      "db.selectFrom('clients')",
      "db.selectFrom('clients as c')",
      "db.selectFrom(['clients as c', 'plans'])",
      ".innerJoin('clients', 'clients.id', 'subscriptions.client_id')",
      ".leftJoin('clients as k', 'k.id', 'audit_log.client_id')",
      "db.updateTable('clients')",
      "db.deleteFrom('clients')",
      "db.insertInto('clients')",
      'sql`select id from clients where id = ?`',
      'sql`update clients set name = 1`',
      'sql`select * from calls join clients on clients.id = calls.client_id`',
    ].filter((code) => clientsTableUses(code).length === 0);
    expect(found).toEqual([]);
  });

  it('is not confused with words that only contain it', () => {
    const wrong = [
      "db.selectFrom('client_call_days')",
      "db.selectFrom('clients_archive')",
      '// the clients of the agency',
      "action: 'clients.sync_all'",
      'const clients = await listClients(db)',
    ].filter((code) => clientsTableUses(code).length > 0);
    expect(wrong).toEqual([]);
  });
});
