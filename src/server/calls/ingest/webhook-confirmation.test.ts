import { describe, expect, it } from 'vitest';
import type { ClientRow } from '../../db/schema';
import type { NormalizedCall, VoiceProvider } from '../../providers/voice/types';
import { CONCURRENT_LOOKUPS, createWebhookConfirmer, MAX_WAITING_LOOKUPS } from './webhook-confirmation';

const posted = (id: string): NormalizedCall => ({
  providerCallId: id,
  fromNumber: '+1555',
  toNumber: '+1666',
  durationSeconds: 60,
  status: 'completed',
  pathwayId: null,
  createdAt: 1_700_000_000_000,
  recordingUrl: null,
  transcript: null,
  isProxy: false,
  priceUsd: null,
});

describe('webhook confirmation look-ups', () => {
  it('holds a few look-ups at a time and stores the overflow unverified at once', async () => {
    const pending: (() => void)[] = [];
    let started = 0;
    const voice = {
      getCall: (_key: string, id: string) => {
        started++;
        return new Promise((resolve) =>
          pending.push(() => resolve({ call: posted(id), raw: { call_id: id } })),
        );
      },
    } as unknown as VoiceProvider;
    const confirmer = createWebhookConfirmer({
      db: undefined as never,
      voices: { bland: voice, vapi: voice, retell: voice },
      secrets: { decrypt: (v: string) => v } as never,
      now: () => 0,
    });
    const client = { id: 'c1', webhook_secret_enc: null, bland_api_key_enc: 'key' } as ClientRow;

    const held = Array.from({ length: CONCURRENT_LOOKUPS + MAX_WAITING_LOOKUPS }, (_, i) =>
      confirmer.confirm(client, posted(`call-${i}`), {}, false),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toBe(CONCURRENT_LOOKUPS);
    // One more than the queue holds: answered without waiting, as unverified.
    const overflow = await confirmer.confirm(client, posted('call-overflow'), {}, false);
    expect(overflow.unverified).toBe(true);

    // The queue drains through the same few slots.
    while (pending.length > 0) {
      pending.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const answers = await Promise.all(held);
    expect(answers.every((a) => !a.unverified)).toBe(true);
    expect(started).toBe(CONCURRENT_LOOKUPS + MAX_WAITING_LOOKUPS);
  });
});
