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

/**
 * An admin's reads of a client's data are folded: one row per admin, client, action and half
 * hour, since the views reload their data often. A folded row counts the reads and keeps the
 * first calls opened, so "who read which transcript" stays answerable without a row per click.
 */
export const READ_AUDIT_QUIET_MS = 30 * 60 * 1000;
const KEPT_CALL_IDS = 20;

export type ReadAction = Extract<AuditAction, 'client.view' | 'client.read_calls' | 'call.read'>;

export async function recordClientRead(
  db: Kysely<Database>,
  read: { adminId: string; clientId: string; action: ReadAction; callId?: string },
  now: number,
): Promise<void> {
  const recent = await db
    .selectFrom('audit_log')
    .select(['id', 'detail'])
    .where('admin_id', '=', read.adminId)
    .where('client_id', '=', read.clientId)
    .where('action', '=', read.action)
    .where('created_at', '>', now - READ_AUDIT_QUIET_MS)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (!recent) {
    const detail = read.callId ? { reads: 1, callIds: [read.callId] } : { reads: 1 };
    await recordAudit(db, { ...read, detail }, now);
    return;
  }
  const folded = foldRead(recent.detail, read.callId);
  await db
    .updateTable('audit_log')
    .set({ detail: JSON.stringify(folded) })
    .where('id', '=', recent.id)
    .execute();
}

function foldRead(detail: string | null, callId: string | undefined): { reads: number; callIds?: string[] } {
  let previous: { reads?: unknown; callIds?: unknown } = {};
  try {
    previous = detail ? (JSON.parse(detail) as typeof previous) : {};
  } catch {
    // A row written before reads were counted: start counting from it.
  }
  const reads = (typeof previous.reads === 'number' ? previous.reads : 1) + 1;
  const callIds = Array.isArray(previous.callIds)
    ? previous.callIds.filter((id) => typeof id === 'string')
    : [];
  if (callId && !callIds.includes(callId) && callIds.length < KEPT_CALL_IDS) callIds.push(callId);
  return callIds.length > 0 ? { reads, callIds } : { reads };
}
