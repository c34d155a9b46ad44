/**
 * Every value of Vapi's `endedReason` (the server SDK's CallEndedReason, 571 values, written out
 * in fixtures/vapi-ended-reasons.ts) and of its CallStatus, each read deliberately. The
 * expectations are stated beside the list, independently of the adapter's table: the reasons not
 * listed as connected, transferred or never connected are all errors, and read as failed with the
 * reason as the error.
 */
import { describe, expect, it } from 'vitest';
import { call } from './fixtures/vapi-call';
import { CONNECTED, NEVER_CONNECTED, TRANSFERRED, VAPI_ENDED_REASONS } from './fixtures/vapi-ended-reasons';

describe('Vapi endedReason: every value of the SDK’s enum', () => {
  it('the expectations name only values of the enum', () => {
    const all = new Set<string>(VAPI_ENDED_REASONS);
    expect(all.size).toBe(571);
    for (const reason of [...CONNECTED, ...TRANSFERRED, ...Object.keys(NEVER_CONNECTED)])
      expect(all.has(reason), reason).toBe(true);
  });

  it.each(VAPI_ENDED_REASONS.map((reason) => [reason]))('%s', (reason) => {
    const read = call({ endedReason: reason });
    const insights = read.insights;
    if (CONNECTED.includes(reason)) {
      expect(read.status).toBe('completed');
      expect(insights?.errorMessage).toBeNull();
      if (reason === 'voicemail') expect(insights?.answeredBy).toBe('voicemail');
    } else if (TRANSFERRED.includes(reason)) {
      expect(read.status).toBe('transferred');
      expect(insights?.errorMessage).toBeNull();
    } else if (reason in NEVER_CONNECTED) {
      expect(read.status).toBe('failed');
      expect(insights?.errorMessage).toBeNull();
      expect(insights?.answeredBy).toBe(NEVER_CONNECTED[reason]);
    } else {
      // Everything else is a fault of Vapi, a provider behind it, the set-up or the line.
      expect(read.status).toBe('failed');
      expect(insights?.errorMessage).toBe(reason);
      expect(insights?.answeredBy).toBeNull();
    }
  });

  it('reads a reason outside the enum by its words: an error fails, anything else is unknown', () => {
    expect(call({ endedReason: 'call.in-progress.error-something-new' }).status).toBe('failed');
    expect(call({ endedReason: 'some-new-ending' }).status).toBe('unknown');
    // Named in the brief but not in the SDK's enum: the transfer target did not answer.
    expect(call({ endedReason: 'call.forwarding.no-answer' }).status).toBe('failed');
  });
});

describe('Vapi CallStatus: every value of the SDK’s enum', () => {
  it.each([
    ['scheduled', 'active'],
    ['queued', 'active'],
    ['ringing', 'active'],
    ['in-progress', 'active'],
    ['forwarding', 'active'],
    ['ended', 'completed'],
    // Answers about the call record, not the call: never "active", never a made-up outcome.
    ['not-found', 'unknown'],
    ['deletion-failed', 'unknown'],
  ])('%s without an ended reason reads as %s', (status, expected) => {
    expect(call({ status, endedReason: undefined, endedAt: undefined }).status).toBe(expected);
  });

  it('an ended reason decides once given, whatever the status says', () => {
    expect(call({ status: 'deletion-failed', endedReason: 'customer-busy' }).status).toBe('failed');
    expect(call({ status: 'in-progress', endedReason: 'customer-ended-call' }).status).toBe('completed');
  });
});
