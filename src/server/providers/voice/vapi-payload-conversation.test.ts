/**
 * Vapi's timed transcript and conversation: the end-of-call report's messages read into lines with
 * their times, the precision when a time is missing, who ended the call for every value of the
 * SDK's `endedReason`, and a stored payload read back.
 */
import { describe, expect, it } from 'vitest';
import { call } from './fixtures/vapi-call';
import vapiFixture from './fixtures/vapi-end-of-call-report.json';
import { TRANSFERRED, VAPI_ENDED_REASONS } from './fixtures/vapi-ended-reasons';
import { callOfReport, messageSpan, readVapiStoredPayload, vapiEndedBy } from './vapi-payload';
import { parseVapiWebhook } from './vapi-webhook';

/**
 * fixtures/vapi-end-of-call-report.json: the conversation of fixtures/README.md as Vapi's
 * end-of-call report. The lines below are the README's table, written out independently.
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
const fixtureMessages = vapiFixture.message.artifact.messages as Record<string, unknown>[];
const withMessages = (messages: unknown[]) =>
  call({ endedReason: 'customer-ended-call', artifact: { messages } });

/** Who ended the call, stated here for every value of the SDK's enum. */
const CALLER_ENDED = [
  'customer-ended-call',
  'customer-ended-call-before-warm-transfer',
  'customer-ended-call-after-warm-transfer-attempt',
  'customer-ended-call-during-transfer',
];
const AGENT_ENDED = [
  'assistant-ended-call',
  'assistant-said-end-call-phrase',
  'assistant-ended-call-after-message-spoken',
  'assistant-ended-call-with-hangup-task',
];

describe('Vapi timed transcript and conversation', () => {
  it('reads the fixture: secondsFromStart, lasting endTime − time; system and tool messages left out', () => {
    const parsed = parseVapiWebhook(JSON.stringify(vapiFixture), {}, null, FIXTURE_NOW);
    if (parsed.kind !== 'call') throw new Error(parsed.kind);
    expect(linesOf(parsed.call.transcript)).toEqual(FIXTURE_LINES);
    expect(parsed.call.transcript?.[5].text).toBe('March third, nineteen eighty-five.');
    expect(parsed.call.conversation).toEqual({ precision: 'message', endedBy: 'agent', sentiment: null });
    expect(parsed.call.durationSeconds).toBe(52);
  });

  it('is approx when a kept line lacks a time, or only the plain transcript came', () => {
    for (const drop of ['secondsFromStart', 'endTime', 'time'] as const) {
      const messages = fixtureMessages.map((m, i) => {
        if (i !== 3) return m;
        const { [drop]: _gone, ...rest } = m;
        return rest;
      });
      const read = withMessages(messages);
      expect(read.conversation?.precision, drop).toBe('approx');
      expect(read.transcript?.[2], drop).not.toHaveProperty('startMs');
      expect(read.transcript?.[1]).toMatchObject({ startMs: 4500, endMs: 7000 });
    }
    // A message that ends before it begins, or one sent as text, is not timed either.
    expect(messageSpan({ role: 'bot', time: 10, endTime: 5, secondsFromStart: 1 })).toBeNull();
    expect(messageSpan({ role: 'bot', time: 10, endTime: 20, secondsFromStart: '1' })).toBeNull();
    expect(messageSpan({ role: 'bot', time: 10, endTime: 20.4, secondsFromStart: 1.0004 })).toEqual({
      startMs: 1000,
      endMs: 1010,
    });
    const plain = call({
      endedReason: 'customer-ended-call',
      artifact: { transcript: 'AI: Hi\nUser: Hello' },
    });
    expect(plain.conversation).toEqual({ precision: 'approx', endedBy: 'caller', sentiment: null });
  });

  it('a call without messages or a transcript (a list item may have none) has no conversation', () => {
    const bare = call({ endedReason: 'customer-ended-call' });
    expect(bare.transcript).toBeNull();
    expect(bare.conversation).toBeUndefined();
  });

  it.each(VAPI_ENDED_REASONS.map((reason) => [reason]))('endedReason %s: who ended the call', (reason) => {
    const expected = CALLER_ENDED.includes(reason)
      ? 'caller'
      : AGENT_ENDED.includes(reason)
        ? 'agent'
        : TRANSFERRED.includes(reason)
          ? 'transfer'
          : 'system';
    expect(vapiEndedBy(reason)).toBe(expected);
  });

  it('no ended reason: unknown', () => {
    expect(vapiEndedBy('')).toBe('unknown');
    expect(withMessages(fixtureMessages).conversation?.endedBy).toBe('caller');
    expect(call({ endedReason: undefined, artifact: { messages: [] } }).conversation?.endedBy).toBe(
      'unknown',
    );
  });

  it('reads a stored payload back (the report as one call, less a top-level `transcript`), never throwing', () => {
    const stored = callOfReport(vapiFixture.message as Record<string, unknown>) as Record<string, unknown>;
    for (const kept of [stored, JSON.stringify(stored)]) {
      const reading = readVapiStoredPayload(kept);
      expect(linesOf(reading.transcript)).toEqual(FIXTURE_LINES);
      expect(reading.conversation).toEqual({ precision: 'message', endedBy: 'agent', sentiment: null });
    }
    const { artifact: _a, ...short } = stored;
    expect(readVapiStoredPayload({ _truncated: true, ...short })).toEqual({
      transcript: null,
      conversation: { precision: 'approx', endedBy: 'agent', sentiment: null },
    });
    for (const unreadable of [null, undefined, 7, 'not json', '"text"', [], {}, { id: 'a/b' }])
      expect(readVapiStoredPayload(unreadable)).toEqual({ transcript: null, conversation: null });
  });
});
