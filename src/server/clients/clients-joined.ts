/**
 * Reads that join the clients table to another module's tables. They live here, beside
 * clients-repository.ts, because clients/ is the only gate to the clients table (checked by
 * clients-repository.test.ts); each is the same single query its caller used to write, so
 * nothing is read twice. The callers own what the rows mean: the portfolio (agency/), the
 * audit log page (agency/routes.ts), account alerts (notifications/) and sessions (auth/).
 */
import type { Kysely } from 'kysely';
import type { Database, SessionKind } from '../db/schema';
import { AGENCY_CLIENT_STATUS } from './clients-repository';

/**
 * The onboarded clients with their running totals at the three points (periodPoints): `e` at
 * the range's end, `m` the day before it, `s` the day before the previous period. Every client has
 * a row at every day from its first to the day after tomorrow, so a missing row means it had not
 * started (0); rows not carried that far yet are found and carried first (readTableInDatabase).
 */
export function clientsAtPoints(db: Kysely<Database>, [start, middle, end]: string[]) {
  return db
    .selectFrom('clients as c')
    .leftJoin('client_call_days as e', (join) => join.onRef('e.client_id', '=', 'c.id').on('e.day', '=', end))
    .leftJoin('client_call_days as m', (join) =>
      join.onRef('m.client_id', '=', 'c.id').on('m.day', '=', middle),
    )
    .leftJoin('client_call_days as s', (join) =>
      join.onRef('s.client_id', '=', 'c.id').on('s.day', '=', start),
    )
    .where('c.onboarding_status', '=', AGENCY_CLIENT_STATUS);
}

export interface AuditFilter {
  page: number;
  limit: number;
  adminId?: string;
  clientId?: string;
  action?: string;
}

/** One page of the audit log, newest first, with the admin's and the client's names, and the count. */
export async function auditPageWithNames(db: Kysely<Database>, filter: AuditFilter) {
  const { page, limit, adminId, clientId, action } = filter;
  let query = db.selectFrom('audit_log');
  if (adminId) query = query.where('audit_log.admin_id', '=', adminId);
  if (clientId) query = query.where('audit_log.client_id', '=', clientId);
  if (action) query = query.where('audit_log.action', '=', action);
  const [rows, count] = await Promise.all([
    query
      .leftJoin('admins', 'admins.id', 'audit_log.admin_id')
      .leftJoin('clients', 'clients.id', 'audit_log.client_id')
      .select([
        'audit_log.id',
        'audit_log.created_at',
        'audit_log.admin_id',
        'audit_log.action',
        'audit_log.client_id',
        'audit_log.detail',
        'admins.name as admin_name',
        'clients.company_name',
        'clients.first_name',
        'clients.last_name',
      ])
      .orderBy('audit_log.created_at', 'desc')
      .orderBy('audit_log.id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count };
}

export interface UsageAlertRow {
  id: string;
  email: string;
  timezone: string;
  company_name: string | null;
  plan_name: string;
  minutes_included: number;
}

/** Active clients on an active plan with minutes included (usage alerts). */
export async function clientsWithActivePlans(db: Kysely<Database>): Promise<UsageAlertRow[]> {
  // The join's where clauses rule out the nulls Kysely allows in these columns
  return (await db
    .selectFrom('subscriptions')
    .innerJoin('clients', 'clients.id', 'subscriptions.client_id')
    .innerJoin('plans', 'plans.id', 'subscriptions.plan_id')
    .select([
      'clients.id as id',
      'clients.email as email',
      'clients.timezone as timezone',
      'clients.company_name as company_name',
      'plans.name as plan_name',
      'plans.minutes_included as minutes_included',
    ])
    .where('subscriptions.status', '=', 'active')
    .where('clients.is_active', '=', 1)
    .where('plans.minutes_included', '>', 0)
    .execute()) as UsageAlertRow[];
}

/** Active clients' cancelled subscriptions ending in (now, now + within] (subscription-ending alerts). */
export function subscriptionsEndingWithin(db: Kysely<Database>, now: number, within: number) {
  return db
    .selectFrom('subscriptions')
    .innerJoin('clients', 'clients.id', 'subscriptions.client_id')
    .innerJoin('plans', 'plans.id', 'subscriptions.plan_id')
    .select([
      'subscriptions.id as id',
      'subscriptions.current_period_end as ends',
      'clients.id as clientId',
      'clients.email as email',
      'clients.timezone as timezone',
      'clients.country as country',
      'plans.name as plan',
    ])
    .where('subscriptions.cancel_at_period_end', '=', 1)
    .where('subscriptions.status', '!=', 'canceled')
    .where('subscriptions.current_period_end', '>', now)
    .where('subscriptions.current_period_end', '<=', now + within)
    .where('clients.is_active', '=', 1)
    .execute();
}

const SUBJECT_TABLES = { client: 'clients', admin: 'admins' } as const satisfies Record<SessionKind, string>;

/** A session's row joined with the client or admin it signs in, in one query (every signed-in request). */
export function sessionWithSubject(db: Kysely<Database>, kind: SessionKind, idHash: string) {
  return (
    db
      .selectFrom('sessions')
      // Typed as the clients table for the builder; the row is the kind's table's (SubjectOf).
      .innerJoin(`${SUBJECT_TABLES[kind] as 'clients'} as subject`, 'subject.id', 'sessions.subject_id')
      .selectAll('subject')
      .select(['sessions.expires_at as session_expires_at', 'sessions.last_seen_at as session_seen_at'])
      .where('sessions.id_hash', '=', idHash)
      .where('sessions.kind', '=', kind)
      .executeTakeFirst()
  );
}
