/**
 * A webhook URL is a bearer secret that can leak, so a delivery is believed only when it is
 * signed (the client set a signing secret) or when the provider confirms it: without a secret but
 * with an API key, a delivery is a notification, and the call is read back from the provider
 * (GET /v1/calls/{id}) before it counts. A call the provider cannot confirm yet is stored as
 * unverified, out of the log and every total, and the next sync settles it. Look-ups are bounded
 * (a few at a time) and remembered briefly, as providers deliver the same call more than once.
 */
import pLimit from 'p-limit';
import { updateClient } from '../../clients/clients-repository';
import type { AppDeps } from '../../context';
import type { ClientRow } from '../../db/schema';
import {
  ProviderAuthError,
  ProviderNotFoundError,
  ProviderUnavailableError,
} from '../../providers/voice/errors';
import { voiceOf } from '../../providers/voice/registry';
import type { NormalizedCall } from '../../providers/voice/types';

export const CONCURRENT_LOOKUPS = 4;
/**
 * Deliveries waiting for a look-up slot. Past this (a flood, or the provider slow to answer) a
 * delivery is stored unverified at once and left to the sync: answers stay fast and the queue
 * cannot grow with whatever is posted.
 */
export const MAX_WAITING_LOOKUPS = 64;
const REMEMBER_MS = 60_000;
const MAX_REMEMBERED = 5_000;

export interface Confirmation {
  call: NormalizedCall;
  raw: unknown;
  unverified: boolean;
  /** Why it could not be confirmed, in words for the delivery log. */
  reason?: string;
}

/** Why a look-up failed, for the admin reading the delivery log (Support Tools). */
function unconfirmedReason(provider: string, error: unknown): string {
  if (error instanceof ProviderAuthError)
    return `${provider} refused the client's API key, so the call could not be confirmed`;
  if (error instanceof ProviderNotFoundError) return `${provider} does not know this call (yet)`;
  if (error instanceof ProviderUnavailableError) return `${provider} did not answer the confirmation`;
  return `${provider} could not confirm the call`;
}

export function createWebhookConfirmer(deps: Pick<AppDeps, 'db' | 'voices' | 'secrets' | 'now'>) {
  const remembered = new Map<string, { expires: number; call: NormalizedCall; raw: unknown }>();
  const lookups = pLimit(CONCURRENT_LOOKUPS);

  /** Runs fn in a slot, or answers null at once when too many are waiting already. */
  async function withSlot<T>(fn: () => Promise<T>): Promise<T | null> {
    if (lookups.activeCount >= CONCURRENT_LOOKUPS && lookups.pendingCount >= MAX_WAITING_LOOKUPS) return null;
    return lookups(fn);
  }

  return {
    /** `signed`: the delivery carried a valid signature of the provider's. */
    async confirm(
      client: ClientRow,
      posted: NormalizedCall,
      raw: unknown,
      signed: boolean,
    ): Promise<Confirmation> {
      // Signed by the provider, or nothing to check with (a client being onboarded): as posted.
      if (signed || !client.bland_api_key_enc) return { call: posted, raw, unverified: false };
      const voice = voiceOf(deps.voices, client);
      const key = `${client.id}:${posted.providerCallId}`;
      const known = remembered.get(key);
      if (known && known.expires > deps.now()) return { call: known.call, raw: known.raw, unverified: false };
      try {
        const apiKey = deps.secrets.decrypt(client.bland_api_key_enc);
        const found = await withSlot(() => voice.getCall(apiKey, posted.providerCallId));
        if (!found)
          return {
            call: posted,
            raw,
            unverified: true,
            reason: 'Too many deliveries waiting; left to the next sync',
          };
        if (remembered.size >= MAX_REMEMBERED) remembered.clear();
        remembered.set(key, { expires: deps.now() + REMEMBER_MS, call: found.call, raw: found.raw });
        return { call: found.call, raw: found.raw, unverified: false };
      } catch (error) {
        // Not found yet, the provider not answering, a key it refuses: the sync settles it. A
        // refused key is remembered on the client, so the admin's console flags it at once.
        if (error instanceof ProviderAuthError && client.api_key_status !== 'invalid')
          await updateClient(deps.db, client.id, { api_key_status: 'invalid', updated_at: deps.now() });
        return { call: posted, raw, unverified: true, reason: unconfirmedReason(voice.name, error) };
      }
    },
  };
}
