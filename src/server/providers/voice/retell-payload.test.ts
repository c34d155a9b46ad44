/**
 * Every value of Retell's `disconnection_reason` (retell-typescript-sdk src/resources/call.ts at
 * b274013, PhoneCallResponse.disconnection_reason, 34 values) and of its call_status, each read
 * deliberately (issue 33.7). The SDK's list is written out; the expectations beside it are stated
 * independently of the adapter's table.
 */
import { describe, expect, it } from 'vitest';
import { parseRetellCall } from './retell-payload';

const RETELL_DISCONNECTION_REASONS = [
  'user_hangup',
  'agent_hangup',
  'call_transfer',
  'voicemail_reached',
  'ivr_reached',
  'inactivity',
  'max_duration_reached',
  'concurrency_limit_reached',
  'no_concurrency_fallback',
  'no_valid_payment',
  'scam_detected',
  'dial_busy',
  'dial_failed',
  'dial_no_answer',
  'invalid_destination',
  'telephony_provider_permission_denied',
  'telephony_provider_unavailable',
  'sip_routing_error',
  'marked_as_spam',
  'user_declined',
  'error_llm_websocket_open',
  'error_llm_websocket_lost_connection',
  'error_llm_websocket_runtime',
  'error_llm_websocket_corrupt_payload',
  'error_no_audio_received',
  'error_asr',
  'error_retell',
  'error_unknown',
  'error_user_not_joined',
  'registered_call_timeout',
  'transfer_bridged',
  'transfer_cancelled',
  'manual_stopped',
  'call_take_over',
] as const;

type Expected = { status: string; answeredBy?: string | null; error: boolean };

/** What each reason means for a call Retell reports as `ended` (it was connected). */
const EXPECTED: Record<(typeof RETELL_DISCONNECTION_REASONS)[number], Expected> = {
  user_hangup: { status: 'completed', error: false },
  agent_hangup: { status: 'completed', error: false },
  call_transfer: { status: 'transferred', error: false },
  voicemail_reached: { status: 'completed', answeredBy: 'voicemail', error: false },
  ivr_reached: { status: 'completed', answeredBy: 'ivr', error: false },
  inactivity: { status: 'completed', error: false },
  max_duration_reached: { status: 'completed', error: false },
  concurrency_limit_reached: { status: 'failed', error: true },
  no_concurrency_fallback: { status: 'failed', error: true },
  no_valid_payment: { status: 'failed', error: true },
  scam_detected: { status: 'failed', error: true },
  dial_busy: { status: 'failed', error: false },
  dial_failed: { status: 'failed', error: true },
  dial_no_answer: { status: 'failed', answeredBy: 'no-answer', error: false },
  invalid_destination: { status: 'failed', error: true },
  telephony_provider_permission_denied: { status: 'failed', error: true },
  telephony_provider_unavailable: { status: 'failed', error: true },
  sip_routing_error: { status: 'failed', error: true },
  marked_as_spam: { status: 'failed', error: true },
  user_declined: { status: 'failed', error: false },
  error_llm_websocket_open: { status: 'failed', error: true },
  error_llm_websocket_lost_connection: { status: 'failed', error: true },
  error_llm_websocket_runtime: { status: 'failed', error: true },
  error_llm_websocket_corrupt_payload: { status: 'failed', error: true },
  error_no_audio_received: { status: 'failed', error: true },
  error_asr: { status: 'failed', error: true },
  error_retell: { status: 'failed', error: true },
  error_unknown: { status: 'failed', error: true },
  error_user_not_joined: { status: 'failed', error: true },
  registered_call_timeout: { status: 'failed', error: true },
  transfer_bridged: { status: 'transferred', error: false },
  // The caller hung up while being transferred: the call happened, the transfer did not.
  transfer_cancelled: { status: 'completed', error: false },
  // Someone stopped the call from Retell's dashboard or API once it was under way.
  manual_stopped: { status: 'completed', error: false },
  // A person took the call over from the agent: a hand-over, counted as a transfer.
  call_take_over: { status: 'transferred', error: false },
};

const NOW = Date.parse('2026-11-25T12:00:00Z');
const read = (over: Record<string, unknown>) => {
  const parsed = parseRetellCall(
    {
      call_id: 'call_2b6e9f0a4c8d',
      call_status: 'ended',
      from_number: '+14155550122',
      to_number: '+14155550123',
      start_timestamp: NOW - 100_000,
      end_timestamp: NOW - 40_000,
      ...over,
    },
    NOW,
  );
  if (!parsed.success) throw new Error(parsed.message);
  return parsed.call;
};

describe('Retell disconnection_reason: every value of the SDK’s enum', () => {
  it.each(RETELL_DISCONNECTION_REASONS.map((reason) => [reason]))('%s', (reason) => {
    const expected = EXPECTED[reason];
    const call = read({ disconnection_reason: reason });
    expect(call.status).toBe(expected.status);
    expect(call.insights?.errorMessage).toBe(expected.error ? reason : null);
    if (expected.answeredBy !== undefined) expect(call.insights?.answeredBy).toBe(expected.answeredBy);
  });

  it('a call that never connected fails whatever its reason says', () => {
    for (const reason of RETELL_DISCONNECTION_REASONS) {
      const call = read({
        call_status: 'not_connected',
        disconnection_reason: reason,
        start_timestamp: undefined,
      });
      expect(call.status, reason).toBe('failed');
    }
  });

  it('a reason outside the enum: an error_ fails, anything else on an ended call is unknown', () => {
    expect(read({ disconnection_reason: 'error_something_new' }).status).toBe('failed');
    expect(read({ disconnection_reason: 'some_new_reason' }).status).toBe('unknown');
    expect(read({ disconnection_reason: undefined }).status).toBe('completed');
  });
});

describe('Retell call_status: every value of the SDK’s enum', () => {
  it.each([
    ['registered', 'active'],
    ['ongoing', 'active'],
    ['ended', 'completed'],
    ['not_connected', 'failed'],
    ['error', 'failed'],
  ])('%s without a reason reads as %s', (status, expected) => {
    expect(read({ call_status: status, disconnection_reason: undefined }).status).toBe(expected);
  });

  it('dates a call that never connected by its end, not by our clock', () => {
    const call = read({
      call_status: 'not_connected',
      start_timestamp: undefined,
      end_timestamp: NOW - 5_000,
    });
    expect(call.createdAt).toBe(NOW - 5_000);
    expect(call.durationSeconds).toBe(0);
  });
});
