/**
 * Reads and writes of the `clients` table for the admin area. Totals come from the call rollups
 * (never a scan of calls); the last call date is one index lookup per client.
 * Every function takes the database handle first, so callers can pass a transaction.
 */
import { type Kysely, PostgresAdapter } from 'kysely';
import type { AdminStats } from '../../contract/admin';
import type { ClientRow, ClientUpdate, Database, NewClientRow } from '../db/schema';
import type { ClientTotals } from './admin-client-view';

export function findClient(db: Kysely<Database>, id: string): Promise<ClientRow | undefined> {
  return db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface ClientWithTotals {
  row: ClientRow;
  totals: ClientTotals;
}

/**
 * Onboarded clients (wizard drafts excluded) with their call totals, newest first.
 * `onlyId` narrows it to one client (any onboarding state) for the admin client view.
 */
export async function listClientsWithTotals(
  db: Kysely<Database>,
  onlyId?: string,
): Promise<ClientWithTotals[]> {
  let clients = db
    .selectFrom('clients')
    .selectAll('clients')
    .select((eb) =>
      eb
        .selectFrom('calls')
        .select((c) => c.fn.max('calls.created_at').as('m'))
        .whereRef('calls.client_id', '=', 'clients.id')
        .as('last_call_at'),
    )
    .orderBy('clients.created_at', 'desc')
    .orderBy('clients.id');
  // Daily rollups: one row per client, day, status and pathway, the fewest rows that hold the totals.
  let sums = db
    .selectFrom('call_rollups_daily')
    .innerJoin('clients', 'clients.id', 'call_rollups_daily.client_id')
    .select('call_rollups_daily.client_id')
    .select((eb) => [
      eb.fn.sum<number>('call_rollups_daily.call_count').as('count'),
      eb.fn.sum<number>('call_rollups_daily.total_cost_micros').as('cost'),
    ])
    .groupBy('call_rollups_daily.client_id');
  if (onlyId) {
    clients = clients.where('clients.id', '=', onlyId);
    sums = sums.where('call_rollups_daily.client_id', '=', onlyId);
  } else {
    clients = clients.where('clients.onboarding_status', '=', 'active');
    sums = sums.where('clients.onboarding_status', '=', 'active');
  }
  const [rows, totals] = await Promise.all([clients.execute(), sums.execute()]);
  const byClient = new Map(totals.map((t) => [t.client_id, t]));
  return rows.map(({ last_call_at, ...row }) => {
    const t = byClient.get(row.id);
    return {
      row: row as ClientRow,
      totals: {
        totalCalls: Number(t?.count ?? 0),
        totalCostMicros: Number(t?.cost ?? 0),
        lastCallAt: last_call_at === null || last_call_at === undefined ? null : Number(last_call_at),
      },
    };
  });
}

export async function getAdminStats(db: Kysely<Database>): Promise<AdminStats> {
  const [clients, calls] = await Promise.all([
    db
      .selectFrom('clients')
      .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.sum<number>('is_active').as('active')])
      .where('onboarding_status', '=', 'active')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('call_rollups_daily')
      .innerJoin('clients', 'clients.id', 'call_rollups_daily.client_id')
      .select((eb) => [
        eb.fn.sum<number>('call_rollups_daily.call_count').as('count'),
        eb.fn.sum<number>('call_rollups_daily.total_cost_micros').as('cost'),
      ])
      .where('clients.onboarding_status', '=', 'active')
      .executeTakeFirstOrThrow(),
  ]);
  return {
    totalClients: Number(clients.total ?? 0),
    activeClients: Number(clients.active ?? 0),
    totalCalls: Number(calls.count ?? 0),
    totalRevenue: Math.round(Number(calls.cost ?? 0) / 10_000) / 100,
  };
}

/** The client holding an e-mail (stored lower-cased), other than `exceptId`. */
export function findByEmail(
  db: Kysely<Database>,
  email: string,
  exceptId?: string,
): Promise<ClientRow | undefined> {
  let q = db.selectFrom('clients').selectAll().where('email', '=', email);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return q.executeTakeFirst();
}

export async function insertClient(db: Kysely<Database>, row: NewClientRow): Promise<void> {
  await db.insertInto('clients').values(row).execute();
}

/**
 * Holds the client's row until the transaction ends, so check-then-insert work for one client
 * (adding its sample set) runs one request at a time, across instances. SQLite needs no lock:
 * its transactions already run one at a time.
 */
export async function lockClient(trx: Kysely<Database>, id: string): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await trx.selectFrom('clients').select('id').where('id', '=', id).forUpdate().execute();
}

export async function updateClient(db: Kysely<Database>, id: string, changes: ClientUpdate): Promise<void> {
  await db.updateTable('clients').set(changes).where('id', '=', id).execute();
}

/**
 * Removes a client with everything it owns. Calls, rollups, subscription, payments, preferences
 * and webhook deliveries go by foreign-key cascade; sessions carry no foreign key (they name
 * admins too), so they are deleted here. Run inside a transaction.
 */
export async function deleteClientCascade(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('kind', '=', 'client').where('subject_id', '=', id).execute();
  await db.deleteFrom('clients').where('id', '=', id).execute();
}
