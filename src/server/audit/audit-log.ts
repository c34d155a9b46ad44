/**
 * The audit log of admin actions (DESIGN §5): who did what to which client, and when. Written in
 * the same transaction as the change when there is one, so a rolled-back change leaves no row.
 * Details are short JSON facts (counts, changed field names), never secrets.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

export type AuditAction =
  | 'client.create_draft'
  | 'client.finalize'
  | 'client.update'
  | 'client.delete'
  | 'client.credentials'
  | 'client.rotate_webhook'
  | 'clients.sync_all'
  | 'call.delete';

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
