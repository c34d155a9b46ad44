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

export interface AuditRecord {
  adminId: string;
  action: string;
  clientId: string | null;
  detail: Record<string, unknown> | null;
  createdAt: number;
}

/** Newest first; for tests and future admin screens. */
export async function listAudit(
  db: Kysely<Database>,
  filter: { clientId?: string; limit?: number } = {},
): Promise<AuditRecord[]> {
  let q = db
    .selectFrom('audit_log')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(filter.limit ?? 100);
  if (filter.clientId) q = q.where('client_id', '=', filter.clientId);
  const rows = await q.execute();
  return rows.map((r) => ({
    adminId: r.admin_id,
    action: r.action,
    clientId: r.client_id,
    detail: r.detail ? (JSON.parse(r.detail) as Record<string, unknown>) : null,
    createdAt: Number(r.created_at),
  }));
}
