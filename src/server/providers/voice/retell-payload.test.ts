/**
 * Every value of Retell's `disconnection_reason` (retell-typescript-sdk src/resources/call.ts at
 * b274013, PhoneCallResponse.disconnection_reason, 34 values) and of its call_status, each read
 * deliberately. The SDK's list is written out; the expectations beside it are stated
 * independently of the adapter's table.
 */
import { describe, expect, it } from 'vitest';
import retellFixture from './fixtures/retell-call.json';
import { parseRetellCall, readRetellStoredPayload, retellEndedBy, wordSpan } from './retell-payload';
import { parseRetellWebhook } from './retell-webhook';

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

/**
 * fixtures/retell-call.json: the conversation of fixtures/README.md as Retell's call object. The
 * lines below are the README's table, written out independently of the fixture.
 */
const FIXTURE_LINES = [
  ['agent', 0, 4000],
  ['user', 4500, 7000],
  ['agent', 8200, 12000],
  ['user', 11800, 14000],
  ['agent', 17500, 21000],
  ['user', 20000, 23000],
  ['agent', 27500, 31000],
  ['user', 37000, 39000],
  ['agent', 40200, 45000],
  ['user', 45500, 47000],
  ['agent', 48000, 50000],
];
const FIXTURE_NOW = Date.parse('2026-03-05T00:00:00Z');
const linesOf = (transcript: { role: string; startMs?: number; endMs?: number }[] | null | undefined) =>
  (transcript ?? []).map((l) => [l.role, l.startMs, l.endMs]);

describe('Retell timed transcript and conversation', () => {
  it('reads the fixture: each line from its first word to its last, word precision', () => {
    const parsed = parseRetellCall(retellFixture, FIXTURE_NOW);
    if (!parsed.success) throw new Error(parsed.message);
    expect(linesOf(parsed.call.transcript)).toEqual(FIXTURE_LINES);
    expect(parsed.call.transcript?.[0].text).toBe(
      'Thanks for calling Bright Smile Dental, this is Ava. How can I help you today?',
    );
    expect(parsed.call.conversation).toEqual({ precision: 'word', endedBy: 'caller', sentiment: 'Positive' });
    expect(parsed.call.durationSeconds).toBe(52);
  });

  it('reads the same from the call_analyzed webhook', () => {
    const body = JSON.stringify({ event: 'call_analyzed', call: retellFixture });
    const parsed = parseRetellWebhook(body, {}, null, FIXTURE_NOW);
    if (parsed.kind !== 'call') throw new Error(parsed.kind);
    expect(linesOf(parsed.call.transcript)).toEqual(FIXTURE_LINES);
    expect(parsed.call.conversation?.precision).toBe('word');
  });

  it('is approx when a line has no usable word times, or only the plain transcript came', () => {
    const objects = retellFixture.transcript_object;
    const without = (i: number, words: unknown) =>
      read({ transcript_object: objects.map((o, j) => (j === i ? { ...o, words } : o)) });
    for (const words of [
      [],
      undefined,
      [{ word: 'hi', start: '0.5', end: 1 }],
      [{ word: 'hi', start: 2, end: 1 }],
    ]) {
      const call = without(3, words);
      expect(call.conversation?.precision, JSON.stringify(words)).toBe('approx');
      // The other lines keep their times; the odd one has none (never a guess).
      expect(call.transcript?.[3]).not.toHaveProperty('startMs');
      expect(call.transcript?.[2]).toMatchObject({ startMs: 8200, endMs: 12000 });
    }
    const plain = read({ transcript: 'Agent: Hello\nUser: Hi' });
    expect(plain.conversation).toEqual({ precision: 'approx', endedBy: 'unknown', sentiment: null });
  });

  it('a transfer target speaks on the agent side, timed by its words', () => {
    const call = read({
      transcript_object: [
        {
          role: 'agent',
          content: 'Transferring you now.',
          words: [{ word: 'Transferring', start: 1, end: 1.6 }],
        },
        {
          role: 'transfer_target',
          content: 'Hi, this is Sam.',
          words: [{ word: 'Hi,', start: 3.25, end: 3.5 }],
        },
      ],
      disconnection_reason: 'call_transfer',
    });
    expect(linesOf(call.transcript)).toEqual([
      ['agent', 1000, 1600],
      ['agent', 3250, 3500],
    ]);
    expect(call.conversation).toEqual({ precision: 'word', endedBy: 'transfer', sentiment: null });
  });

  it('a call without a transcript (a list item may have none) has no conversation', () => {
    expect(read({}).conversation).toBeUndefined();
    expect(read({}).transcript).toBeNull();
  });

  it.each([
    ['user_hangup', 'caller'],
    ['agent_hangup', 'agent'],
    ['call_transfer', 'transfer'],
    ['transfer_bridged', 'transfer'],
    ['call_take_over', 'transfer'],
    ['inactivity', 'system'],
    ['max_duration_reached', 'system'],
    ['voicemail_reached', 'system'],
    ['transfer_cancelled', 'system'],
    ['dial_no_answer', 'system'],
    ['concurrency_limit_reached', 'system'],
    ['error_asr', 'system'],
    ['some_new_reason', 'system'],
    ['', 'unknown'],
  ])('disconnection_reason %j: ended by %s', (reason, endedBy) => {
    expect(retellEndedBy(reason)).toBe(endedBy);
  });

  it('reads words loosely: first start and last end, in whole ms', () => {
    expect(
      wordSpan([
        { start: 0.0004, end: 0.2 },
        { start: 0.3, end: 1.2345 },
      ]),
    ).toEqual({ startMs: 0, endMs: 1235 });
    expect(wordSpan('words')).toBeNull();
    expect(wordSpan([null])).toBeNull();
    expect(wordSpan([{ start: -1, end: 2 }])).toBeNull();
  });

  it('reads a stored payload back (without `transcript`, as stored-payload.ts keeps it), never throwing', () => {
    const { transcript: _plain, ...kept } = retellFixture;
    for (const stored of [kept, JSON.stringify(kept)]) {
      const reading = readRetellStoredPayload(stored);
      expect(linesOf(reading.transcript)).toEqual(FIXTURE_LINES);
      expect(reading.conversation).toEqual({ precision: 'word', endedBy: 'caller', sentiment: 'Positive' });
    }
    // Cut to its short values (a payload over the bound): who ended it still reads, no lines.
    const { transcript_object: _o, call_analysis: _a, ...scalars } = kept;
    expect(readRetellStoredPayload({ _truncated: true, ...scalars })).toEqual({
      transcript: null,
      conversation: { precision: 'approx', endedBy: 'caller', sentiment: null },
    });
    for (const unreadable of [null, undefined, 42, '{', '[]', [], {}, { call_id: '../x' }])
      expect(readRetellStoredPayload(unreadable)).toEqual({ transcript: null, conversation: null });
  });
});
