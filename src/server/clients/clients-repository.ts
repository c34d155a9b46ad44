/**
 * Every read and write of the `clients` table: sign-in, guards, webhooks, sync, billing and the
 * admin area go through these functions. Totals come from the call rollups (never a scan of
 * calls); the last call date is one index lookup per client. Every function takes the database
 * handle first, so callers can pass a transaction.
 */
import { type Kysely, type SqlBool, sql } from 'kysely';
import type { AdminStats } from '../../contract/admin';
import { clockOf } from '../../contract/local-time';
import type { SecretBox } from '../crypto/secrets';
import { isPostgres } from '../db/dialect';
import type { ClientRow, ClientUpdate, Database, NewClientRow } from '../db/schema';
import type { ClientTotals } from './admin-client-view';
import { announceClientDeleted, type ClientChangeListener } from './client-changes';
import { syncAccountLogin } from './users-repository';
import { newWebhookToken } from './webhook-token';

/**
 * The agency's clients: onboarded ones, active or deactivated. A wizard draft
 * ('pending') is not one yet and the demo tenant ('demo') never is. Every admin list and total
 * and the all-clients export count these and only these, through this status or `agencyClientIds`.
 */
export const AGENCY_CLIENT_STATUS = 'active' satisfies ClientRow['onboarding_status'];

/** The ids of the agency's clients, as a subquery (`where('calls.client_id', 'in', …)`). */
export function agencyClientIds(db: Kysely<Database>) {
  return db
    .selectFrom('clients')
    .select('clients.id')
    .where('clients.onboarding_status', '=', AGENCY_CLIENT_STATUS);
}

/** Every client's id (jobs that visit each client in turn). */
export async function listClientIds(db: Kysely<Database>): Promise<string[]> {
  return (await db.selectFrom('clients').select('id').orderBy('id').execute()).map((r) => r.id);
}

export function findClient(db: Kysely<Database>, id: string): Promise<ClientRow | undefined> {
  return db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The onboarded client signing in with this (lower-cased) e-mail. */
export function findActiveClientByEmail(db: Kysely<Database>, email: string): Promise<ClientRow | undefined> {
  return db
    .selectFrom('clients')
    .selectAll()
    .where('email', '=', email)
    .where('onboarding_status', '=', 'active')
    .executeTakeFirst();
}

/**
 * The clients of these webhook token hashes (clients/webhook-token.ts; the webhook route's lookups
 * of one moment, read together).
 */
export function findClientsByWebhookTokenHashes(
  db: Kysely<Database>,
  hashes: string[],
): Promise<ClientRow[]> {
  if (hashes.length === 0) return Promise.resolve([]);
  return db.selectFrom('clients').selectAll().where('webhook_token_hash', 'in', hashes).execute();
}

export async function clientExists(db: Kysely<Database>, id: string): Promise<boolean> {
  return !!(await db.selectFrom('clients').select('id').where('id', '=', id).executeTakeFirst());
}

/** Time zones of these clients (UTC for an unknown id): local days of rollups and charts. */
export async function timeZonesOf(db: Kysely<Database>, ids: string[]): Promise<Map<string, string>> {
  const zones = new Map(ids.map((id) => [id, 'UTC']));
  if (ids.length === 0) return zones;
  const rows = await db.selectFrom('clients').select(['id', 'timezone']).where('id', 'in', ids).execute();
  for (const row of rows) zones.set(row.id, row.timezone);
  return zones;
}

/** A client as exports name it, and the zone and locale its times are shown in. */
export interface ClientLabel {
  name: string;
  timezone: string;
  locale: string;
}

export function clientLabel(
  row: Pick<ClientRow, 'company_name' | 'email' | 'timezone' | 'country'>,
): ClientLabel {
  const clock = clockOf(row);
  return { name: row.company_name || row.email, timezone: clock.timeZone, locale: clock.locale };
}

/** The agency's clients' labels, by id (the admin's all-clients export names its rows). */
export async function clientLabels(db: Kysely<Database>): Promise<Map<string, ClientLabel>> {
  const rows = await db
    .selectFrom('clients')
    .select(['id', 'company_name', 'email', 'timezone', 'country'])
    .where('onboarding_status', '=', AGENCY_CLIENT_STATUS)
    .execute();
  return new Map(rows.map((r) => [r.id, clientLabel(r)]));
}

/** What notifications need of several clients at once: where to write, their zone, their state. */
export function notificationTargetsOf(db: Kysely<Database>, ids: string[]) {
  return db
    .selectFrom('clients')
    .leftJoin('client_webhooks', 'client_webhooks.client_id', 'clients.id')
    .select([
      'clients.id as id',
      'clients.email as email',
      'clients.phone_number as phone_number',
      'clients.timezone as timezone',
      'clients.company_name as company_name',
      'clients.onboarding_status as onboarding_status',
      // Set when the client has a webhook endpoint: without one, webhook events have nowhere to go.
      'client_webhooks.url as webhook_url',
    ])
    .where('clients.id', 'in', ids)
    .execute();
}

/** Active clients with calls in [from, to) and none from `to` on: their calls stopped arriving. */
export function listSilentClients(db: Kysely<Database>, from: number, to: number) {
  return db
    .selectFrom('clients')
    .select(['clients.id', 'clients.email', 'clients.company_name', 'clients.timezone'])
    .where('clients.is_active', '=', 1)
    .where('clients.onboarding_status', '=', AGENCY_CLIENT_STATUS)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('call_rollups')
          .select('call_rollups.client_id')
          .whereRef('call_rollups.client_id', '=', 'clients.id')
          .where('call_rollups.bucket_start', '>=', from)
          .where('call_rollups.bucket_start', '<', to),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('call_rollups')
            .select('call_rollups.client_id')
            .whereRef('call_rollups.client_id', '=', 'clients.id')
            // The bucket holding `to` may hold calls from just before it: look from the next one.
            .where('call_rollups.bucket_start', '>=', to + 15 * 60 * 1000),
        ),
      ),
    )
    .execute();
}

export async function timeZoneOf(db: Kysely<Database>, id: string): Promise<string> {
  return (await timeZonesOf(db, [id])).get(id) ?? 'UTC';
}

/** The onboarding wizard waits for this: the first valid call reaching each client's URL. */
export async function markWebhooksVerified(db: Kysely<Database>, ids: string[], at: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('clients')
    .set({ webhook_verified_at: at })
    .where('id', 'in', ids)
    .where('webhook_verified_at', 'is', null)
    .execute();
}

/** Wizard drafts created before `before`: abandoned, to be removed with their test calls. */
export function listStaleDrafts(db: Kysely<Database>, before: number) {
  return db
    .selectFrom('clients')
    .select('id')
    .where('onboarding_status', '=', 'pending')
    .where('created_at', '<', before)
    .execute();
}

/** Active, onboarded clients for sync-all, oldest first. */
export function listSyncableClients(db: Kysely<Database>) {
  return db
    .selectFrom('clients')
    .select(['id', 'first_name', 'last_name', 'company_name', 'bland_api_key_enc'])
    .where('onboarding_status', '=', AGENCY_CLIENT_STATUS)
    .where('is_active', '=', 1)
    .orderBy('created_at')
    .execute();
}

export interface ClientWithTotals {
  row: ClientRow;
  totals: ClientTotals;
}

/**
 * The agency's clients (AGENCY_CLIENT_STATUS) with their call totals, newest first.
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
        // An unconfirmed webhook call is in no total, so not the "last call" either.
        .where('calls.verified', '=', 1)
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
    clients = clients.where('clients.onboarding_status', '=', AGENCY_CLIENT_STATUS);
    sums = sums.where('clients.onboarding_status', '=', AGENCY_CLIENT_STATUS);
  }
  const [rows, totals] = await Promise.all([clients.execute(), sums.execute()]);
  const byClient = new Map(totals.map((t) => [t.client_id, t]));
  return rows.map(({ last_call_at, ...row }) => {
    const t = byClient.get(row.id);
    return {
      // The clients row without last_call_at, which the select added, is a ClientRow
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
      .where('onboarding_status', '=', AGENCY_CLIENT_STATUS)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('call_rollups_daily')
      .innerJoin('clients', 'clients.id', 'call_rollups_daily.client_id')
      .select((eb) => [
        eb.fn.sum<number>('call_rollups_daily.call_count').as('count'),
        eb.fn.sum<number>('call_rollups_daily.total_cost_micros').as('cost'),
      ])
      .where('clients.onboarding_status', '=', AGENCY_CLIENT_STATUS)
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

/** Inserts the row unless a client with its id exists (the demo tenant, created by any instance). */
export async function insertClientIfAbsent(db: Kysely<Database>, row: NewClientRow): Promise<void> {
  await db
    .insertInto('clients')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
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
  if (!isPostgres(trx)) return;
  await trx.selectFrom('clients').select('id').where('id', '=', id).forUpdate().execute();
}

/**
 * A change of the client's e-mail or password hash is its account login's too (users-repository):
 * both rows change in one transaction.
 */
export async function updateClient(db: Kysely<Database>, id: string, changes: ClientUpdate): Promise<void> {
  const write = async (trx: Kysely<Database>) => {
    await trx.updateTable('clients').set(changes).where('id', '=', id).execute();
    await syncAccountLogin(trx, id, changes);
  };
  const touchesLogin = changes.email !== undefined || changes.password_hash !== undefined;
  if (!touchesLogin || db.isTransaction) await write(db);
  else await db.transaction().execute(write);
}

/**
 * Replaces the client's token (the Owner's Settings › Security, the admin's client view): the old
 * URL stops working at once, on every instance, as deliveries are looked up afresh each time.
 * Answers the new token; run in the transaction that records the rotation.
 */
export async function rotateWebhookToken(
  db: Kysely<Database>,
  secrets: SecretBox,
  clientId: string,
  now: number,
): Promise<string> {
  const { token, columns } = newWebhookToken(secrets);
  await updateClient(db, clientId, { ...columns, updated_at: now });
  return token;
}

/**
 * Removes a client with everything it owns. Calls, rollups, subscription, payments, preferences
 * and webhook deliveries go by foreign-key cascade; sessions carry no foreign key (they name
 * admins too), so they are removed here; data other modules derive from the client (the agency's
 * running totals) is theirs to remove when told (`listeners`, deps.clientChanges). Run inside a
 * transaction.
 */
export async function deleteClientCascade(
  db: Kysely<Database>,
  id: string,
  listeners: readonly ClientChangeListener[],
): Promise<void> {
  await announceClientDeleted(db, listeners, id);
  await db.deleteFrom('sessions').where('kind', '=', 'client').where('subject_id', '=', id).execute();
  await db.deleteFrom('ui_preferences').where('owner', '=', `client:${id}`).execute();
  await db.deleteFrom('clients').where('id', '=', id).execute();
}

/** A client the scheduled e-mails go to, with its e-mail preferences (null where it never saved). */
export interface ReportRecipient {
  id: string;
  email: string;
  timezone: string;
  /** Its dates' locale comes from it (regional.ts). */
  country: string | null;
  company_name: string | null;
  email_on: number | null;
  reports_on: number | null;
  digest: string | null;
  /** Digests cover periods from this instant's local day on; null: none yet (041_notify_from). */
  notify_from: number | null;
  /** 1: its report may name the platform's terms (040_platform_disclosure). */
  show_platform_details: number;
}

/** Active, onboarded clients and their e-mail preferences: who digests and monthly reports go to. */
export function listReportRecipients(db: Kysely<Database>): Promise<ReportRecipient[]> {
  // Text columns read as string; digest only ever holds a DigestFrequency
  return db
    .selectFrom('clients')
    .leftJoin('notification_prefs', 'notification_prefs.client_id', 'clients.id')
    .select([
      'clients.id as id',
      'clients.email as email',
      'clients.timezone as timezone',
      'clients.country as country',
      'clients.company_name as company_name',
      'notification_prefs.email_notifications as email_on',
      'notification_prefs.monthly_reports as reports_on',
      'notification_prefs.digest as digest',
      'clients.notify_from as notify_from',
      'clients.show_platform_details as show_platform_details',
    ])
    .where('clients.is_active', '=', 1)
    .where('clients.onboarding_status', '=', AGENCY_CLIENT_STATUS)
    .execute() as Promise<ReportRecipient[]>;
}

/** Clients that are not the agency's (drafts, the demo tenant): their calls are in no portfolio figure. */
export function listClientsOutsidePortfolio(db: Kysely<Database>) {
  return db
    .selectFrom('clients')
    .select('id')
    .where('onboarding_status', '!=', AGENCY_CLIENT_STATUS)
    .execute();
}

/** The agency's clients as its portfolio lists them. */
export function listPortfolioClients(db: Kysely<Database>) {
  return db
    .selectFrom('clients')
    .select(['id', 'first_name', 'last_name', 'company_name', 'email', 'is_active'])
    .where('onboarding_status', '=', AGENCY_CLIENT_STATUS)
    .execute();
}

/**
 * A client's newest confirmed call (epoch ms) as a subquery, `clientId` naming the client's id
 * column in the outer query. An unconfirmed webhook call is in no total, so not the "last call"
 * either. Newest first through the (client, created) index and one row: max() with the extra
 * condition would read every call of the client.
 */
export function lastCallAtOf(db: Kysely<Database>, clientId: 'clients.id' | 'c.id') {
  return db
    .selectFrom('calls')
    .select('calls.created_at')
    .where(sql<SqlBool>`calls.client_id = ${sql.ref(clientId)}`)
    .where('calls.verified', '=', 1)
    .orderBy('calls.created_at', 'desc')
    .limit(1);
}

/**
 * Each client's newest confirmed call (epoch ms), for the clients asked: one index seek each, so
 * the console asks for the rows it shows, not for every client.
 */
export async function lastCallTimes(db: Kysely<Database>, clientIds: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let i = 0; i < clientIds.length; i += 500) {
    const rows = await db
      .selectFrom('clients')
      .select('id')
      .select(lastCallAtOf(db, 'clients.id').as('last_call_at'))
      .where('id', 'in', clientIds.slice(i, i + 500))
      .execute();
    for (const r of rows) if (r.last_call_at !== null) out.set(r.id, Number(r.last_call_at));
  }
  return out;
}

/** Active, onboarded clients with what the at-risk rules read: key status, subscription, plan. */
export function listRiskFacts(db: Kysely<Database>) {
  return db
    .selectFrom('clients')
    .leftJoin('subscriptions', 'subscriptions.client_id', 'clients.id')
    .leftJoin('plans', 'plans.id', 'subscriptions.plan_id')
    .select([
      'clients.id',
      'clients.first_name',
      'clients.last_name',
      'clients.company_name',
      'clients.timezone',
      'clients.provider',
      'clients.api_key_status',
      'subscriptions.status as subscription_status',
      'subscriptions.cancel_at_period_end',
      'subscriptions.current_period_end',
      'subscriptions.action_invoice_id',
      'plans.name as plan_name',
      'plans.minutes_included',
    ])
    .where('clients.onboarding_status', '=', AGENCY_CLIENT_STATUS)
    .where('clients.is_active', '=', 1)
    .execute();
}
