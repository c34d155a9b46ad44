/**
 * The audit log of admin actions (DESIGN §5): who did what to which client, and when. Written in
 * the same transaction as the change when there is one, so a rolled-back change leaves no row.
 * Details are short JSON facts (counts, changed field names), never secrets.
 */
import type { Kysely } from 'kysely';
import type { AuditAction } from '../../contract/agency';
import type { Database } from '../db/schema';

export type { AuditAction };

export interface AuditEntry {
  adminId: string;
  action: AuditAction;
  clientId?: string | null;
  detail?: Record<string, unknown>;
}

export async function recordAudit(db: Kysely<Database>, entry: AuditEntry, now: number): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      admin_id: entry.adminId,
      action: entry.action,
      client_id: entry.clientId ?? null,
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
      created_at: now,
    })
    .execute();
}

/** One "viewed as client" row per admin, client and half hour: the view reloads its data often. */
export const VIEW_AUDIT_QUIET_MS = 30 * 60 * 1000;

export async function recordClientView(
  db: Kysely<Database>,
  adminId: string,
  clientId: string,
  now: number,
): Promise<void> {
  const recent = await db
    .selectFrom('audit_log')
    .select('id')
    .where('admin_id', '=', adminId)
    .where('client_id', '=', clientId)
    .where('action', '=', 'client.view')
    .where('created_at', '>', now - VIEW_AUDIT_QUIET_MS)
    .executeTakeFirst();
  if (!recent) await recordAudit(db, { adminId, action: 'client.view', clientId }, now);
}
