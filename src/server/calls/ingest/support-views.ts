/** How Support Tools show stored rows: deliveries, who started a sync, pages. */
import type { Kysely } from 'kysely';
import type { Delivery } from '../../../contract/agency';
import type { Database } from '../../db/schema';

export function toDelivery(row: {
  id: string;
  received_at: number;
  kind: string;
  provider_call_id: string | null;
  outcome: string;
  detail: string | null;
  raw_body: string | null;
  replay_of: string | null;
  kept: boolean;
}): Delivery {
  return {
    id: row.id,
    receivedAt: new Date(Number(row.received_at)).toISOString(),
    kind: row.kind,
    callId: row.provider_call_id,
    outcome: row.outcome,
    detail: row.detail,
    body: row.raw_body,
    replayOf: row.replay_of,
    replayable: row.kept,
  };
}

/** Names of admins by id (deactivated ones too: the history keeps who did it). */
export async function adminNames(db: Kysely<Database>, ids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.selectFrom('admins').select(['id', 'name']).where('id', 'in', unique).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** sync_runs.started_by in words. */
export function describeStarter(startedBy: string, names: Map<string, string>): string {
  const [who, id] = startedBy.split(':');
  const name = id ? (names.get(id) ?? 'a removed admin') : '';
  if (who === 'admin') return name;
  if (who === 'sync-all') return `Sync all, by ${name}`;
  if (who === 'system') return 'The system';
  return 'The client';
}
