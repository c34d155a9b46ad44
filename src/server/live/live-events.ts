/**
 * Live events written in the transaction of the change they announce: a call created,
 * updated or deleted, or many calls at once. Calls the provider has not confirmed are in no total
 * and no list, so they are not announced either.
 */
import type { Kysely } from 'kysely';
import type {
  LiveActivityEvent,
  LiveCallChange,
  LiveCallEvent,
  LiveEventKind,
  LiveRefreshEvent,
} from '../../contract/live';
import type { CallRow, Database } from '../db/schema';

type Announced = Pick<
  CallRow,
  | 'id'
  | 'provider_call_id'
  | 'client_id'
  | 'status'
  | 'outcome'
  | 'created_at'
  | 'from_number'
  | 'to_number'
  | 'pathway'
  | 'verified'
  | 'is_proxy'
>;

interface Pending {
  clientId: string;
  kind: LiveEventKind;
  data: LiveCallEvent | LiveRefreshEvent | LiveActivityEvent;
}

export class LiveEvents {
  private readonly pending: Pending[] = [];

  call(row: Announced, change: LiveCallChange): void {
    if (row.verified === 0 || row.is_proxy) return;
    this.pending.push({
      clientId: row.client_id,
      kind: 'call',
      data: {
        change,
        callId: row.id,
        providerCallId: row.provider_call_id,
        status: row.status,
        outcome: row.outcome ?? null,
        createdAt: new Date(Number(row.created_at)).toISOString(),
        fromNumber: row.from_number,
        toNumber: row.to_number,
        pathway: row.pathway,
      },
    });
  }

  /** A call the provider says is in progress (its live events), before it is stored. */
  activity(clientId: string, providerCallId: string, at: number): void {
    this.pending.push({
      clientId,
      kind: 'activity',
      data: { providerCallId, at: new Date(at).toISOString() },
    });
  }

  refresh(clientId: string, reason: string): void {
    this.pending.push({ clientId, kind: 'refresh', data: { reason } });
  }

  async apply(db: Kysely<Database>, now: number): Promise<void> {
    if (this.pending.length === 0) return;
    const rows = this.pending.splice(0).map((e) => ({
      client_id: e.clientId,
      kind: e.kind,
      payload: JSON.stringify(e.data),
      created_at: now,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto('live_events')
        .values(rows.slice(i, i + 500))
        .execute();
  }
}

/** Events older than a stream could resume from. */
export async function pruneLiveEvents(db: Kysely<Database>, before: number): Promise<number> {
  const result = await db.deleteFrom('live_events').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
