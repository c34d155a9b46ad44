/**
 * Writes validated post-call webhook deliveries. Deliveries that arrive together share one
 * transaction (group commit), because per-delivery transactions cap ingestion at a few hundred a
 * second: the call upserts, their rollups, the delivery log and the wizard's "webhook verified"
 * mark all go in together, and each delivery is answered only after that commit.
 */
import { randomUUID } from 'node:crypto';
import { markWebhooksVerified } from '../../clients/clients-repository';
import { isTransientDbError } from '../../clients/db-errors';
import type { AppDeps } from '../../context';
import type { ClientRow } from '../../db/schema';
import { createGroupCommit } from '../../http/group-commit';
import { type EffectivePrivacy, loadPrivacyMany } from '../../privacy/privacy-settings';
import { type CallOutcome, createCallsRepository, type IncomingCall } from '../write/calls-repository';

/** What the delivery log keeps beside the outcome (webhook-delivery.ts). */
export interface DeliveryLog {
  detail?: string | null;
  rawBody?: string | null;
  signatureHeaders?: string | null;
  replayOf?: string | null;
}

export interface CallDelivery {
  client: ClientRow;
  call: IncomingCall;
  receivedAt: number;
  log?: DeliveryLog;
}

/** 'unconfirmed': stored, but out of every total until the provider confirms it. */
export type DeliveryOutcome = 'created' | 'updated' | 'duplicate' | 'unconfirmed';

export interface WrittenDelivery {
  outcome: DeliveryOutcome;
  deliveryId: string;
}

const OUTCOME: Record<CallOutcome, DeliveryOutcome> = {
  created: 'created',
  updated: 'updated',
  unchanged: 'duplicate',
};

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function createWebhookIngest(deps: AppDeps) {
  async function writeDeliveries(deliveries: CallDelivery[]): Promise<WrittenDelivery[]> {
    // Read before the transaction opens, through the app's cached handle (privacy-settings.ts).
    const privacy = await loadPrivacyMany(
      deps.db,
      deliveries.map((d) => d.client.id),
    );
    const written = await writeInTransaction(deliveries, privacy);
    // Committed: this instance's live streams hear of the calls at once (others by NOTIFY or poll).
    deps.live.wake();
    return written;
  }

  function writeInTransaction(
    deliveries: CallDelivery[],
    privacy: Map<string, EffectivePrivacy>,
  ): Promise<WrittenDelivery[]> {
    return deps.db.transaction().execute(async (trx) => {
      // In (client, call id) order, stable so repeats of one call keep their arrival order:
      // concurrent batches on PostgreSQL then lock rows in the same order and do not deadlock.
      const order = [...deliveries.keys()].sort(
        (a, b) =>
          byId(deliveries[a].client.id, deliveries[b].client.id) ||
          byId(deliveries[a].call.providerCallId, deliveries[b].call.providerCallId),
      );
      const result = await createCallsRepository(trx, deps.now).upsertMany(
        order.map((i) => ({ client: deliveries[i].client, call: deliveries[i].call })),
        privacy,
      );
      const written = new Array<WrittenDelivery>(deliveries.length);
      order.forEach((i, k) => {
        const outcome = OUTCOME[result.outcomes[k]];
        written[i] = {
          outcome: deliveries[i].call.unverified && outcome !== 'duplicate' ? 'unconfirmed' : outcome,
          deliveryId: randomUUID(),
        };
      });
      await trx
        .insertInto('webhook_deliveries')
        .values(
          deliveries.map((d, i) => ({
            id: written[i].deliveryId,
            client_id: d.client.id,
            received_at: d.receivedAt,
            kind: 'call',
            provider_call_id: d.call.providerCallId,
            outcome: written[i].outcome,
            detail: d.log?.detail ?? null,
            raw_body: d.log?.rawBody ?? null,
            signature_headers: d.log?.signatureHeaders ?? null,
            replay_of: d.log?.replayOf ?? null,
          })),
        )
        .execute();
      // The onboarding wizard waits for exactly this: a valid call reaching the client's URL.
      const unverified = [
        ...new Set(deliveries.filter((d) => d.client.webhook_verified_at === null).map((d) => d.client.id)),
      ];
      await markWebhooksVerified(trx, unverified, Math.min(...deliveries.map((d) => d.receivedAt)));
      return written;
    });
  }

  // PostgreSQL: a few batches in flight, as each mostly waits on round trips (their row locks are
  // taken in one order, and a rare deadlock only sends that batch's deliveries through one by one).
  return createGroupCommit(writeDeliveries, {
    concurrency: deps.dialect === 'postgres' ? 4 : 1,
    isTransient: isTransientDbError,
  });
}
