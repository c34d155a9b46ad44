import { describe, expect, it } from 'vitest';
import { generateCall } from '../../../../sim/voice-provider/generate';
import blandExamples from '../../../../specs/bland/documented-examples.json';
import {
  type BlandCallPayload,
  blandCallSchema,
  blandEndedBy,
  classifyWebhookBody,
  isBlandEventBody,
  mapBlandCall,
  mapBlandCorrected,
  mapBlandStatus,
  parseBlandCall,
  parseBlandTime,
  readBlandCallFast,
  readBlandStoredPayload,
  withCorrectedTranscript,
} from './bland-payload';
import blandFixture from './fixtures/bland-call.json';
import correctedFixture from './fixtures/bland-corrected.json';

/** Bland's documented example, trimmed: a finished outbound call. */
const documented = {
  status: 'completed',
  corrected_duration: '71',
  end_at: '2023-12-16T00:15:41.000Z',
  call_id: 'c1234567-89ab-cdef-0123-456789abcdef',
  to: '+15551234567',
  from: '+15557654321',
  completed: true,
  created_at: '2023-12-16T00:15:26.59585+00:00',
  queue_status: 'complete',
  endpoint_url: 'api.bland.ai',
  max_duration: 30,
  error_message: null,
  answered_by: 'human',
  call_length: 1.2,
  price: 0.108,
  pathway_id: 'pw-1',
  recording_url: 'https://storage.example.com/rec/c1234567.mp3',
  variables: { city: 'San Francisco' },
  concatenated_transcript: 'user: Hey \n assistant: Hi!',
  transcripts: [
    {
      id: 123456,
      created_at: '2023-12-16T00:15:32.287493+00:00',
      text: "Hey, it's Alex.",
      user: 'user',
      c_id: 'x',
    },
    { id: 123457, created_at: '2023-12-16T00:15:35.1+00:00', text: 'Hi! It is Blandie.', user: 'assistant' },
    { id: 123458, created_at: '2023-12-16T00:15:36+00:00', text: 'Please hold.', user: 'robot' },
    { id: 123459, created_at: '2023-12-16T00:15:40+00:00', text: 'Transferring call', user: 'agent-action' },
    { id: 123460, created_at: '2023-12-16T00:15:41+00:00', text: '   ', user: 'user' },
  ],
};

function payload(fields: Record<string, unknown>): BlandCallPayload {
  return blandCallSchema.parse({ call_id: 'c-1', ...fields });
}

describe('mapBlandCall', () => {
  it('maps the documented call-details object', () => {
    const call = mapBlandCall(blandCallSchema.parse(documented));
    expect(call).toEqual({
      providerCallId: 'c1234567-89ab-cdef-0123-456789abcdef',
      fromNumber: '+15557654321',
      toNumber: '+15551234567',
      durationSeconds: 71,
      status: 'completed',
      pathwayId: 'pw-1',
      createdAt: Date.parse('2023-12-16T00:15:26.595Z'),
      recordingUrl: 'https://storage.example.com/rec/c1234567.mp3',
      transcript: [
        { role: 'user', text: "Hey, it's Alex.", timestamp: '2023-12-16T00:15:32.287493+00:00' },
        { role: 'agent', text: 'Hi! It is Blandie.', timestamp: '2023-12-16T00:15:35.1+00:00' },
        { role: 'agent', text: 'Please hold.', timestamp: '2023-12-16T00:15:36+00:00' },
        { role: 'agent', text: 'Transferring call', timestamp: '2023-12-16T00:15:40+00:00' },
      ],
      isProxy: false,
      priceUsd: 0.108,
      // The post-call lines are untimed; the example does not say who hung up.
      conversation: { precision: 'approx', endedBy: 'unknown', sentiment: null },
      // Bland's documented nulls and missing fields read as "not said".
      insights: {
        summary: null,
        answeredBy: 'human',
        endedBy: null,
        errorMessage: null,
        dispositionTag: null,
        analysis: null,
        variables: { city: 'San Francisco' },
      },
    });
  });

  it('takes duration from corrected_duration, else rounds call_length minutes', () => {
    expect(mapBlandCall(payload({ corrected_duration: '71', call_length: 5 })).durationSeconds).toBe(71);
    expect(mapBlandCall(payload({ corrected_duration: 42 })).durationSeconds).toBe(42);
    expect(mapBlandCall(payload({ call_length: 0.834 })).durationSeconds).toBe(50);
    expect(mapBlandCall(payload({ corrected_duration: null, call_length: 0.75 })).durationSeconds).toBe(45);
    expect(mapBlandCall(payload({})).durationSeconds).toBe(0);
  });

  it('keeps list items without transcripts as transcript null, an empty array as []', () => {
    expect(mapBlandCall(payload({ completed: true })).transcript).toBeNull();
    expect(mapBlandCall(payload({ completed: true, transcripts: [] })).transcript).toEqual([]);
  });

  it('marks proxy-agent calls, drops non-http recording urls, blanks missing numbers', () => {
    const call = mapBlandCall(
      payload({ is_proxy_agent_call: true, recording_url: 'javascript:alert(1)', to: null }),
    );
    expect(call.isProxy).toBe(true);
    expect(call.recordingUrl).toBeNull();
    expect(call.toNumber).toBe('');
    expect(call.fromNumber).toBe('');
    expect(call.pathwayId).toBeNull();
    expect(call.priceUsd).toBeNull();
  });

  it('falls back to started_at, then to the given time, for the creation time', () => {
    expect(mapBlandCall(payload({ started_at: '2024-04-27T23:51:25+00:00' })).createdAt).toBe(
      Date.parse('2024-04-27T23:51:25Z'),
    );
    expect(mapBlandCall(payload({}), 1234).createdAt).toBe(1234);
  });
});

describe('mapBlandStatus', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    [
      'transferred wins over everything',
      { transferred_to: '+15550100', status: 'completed', completed: true },
      'transferred',
    ],
    [
      'transferred even while ongoing',
      { transferred_to: '+15550100', completed: false, queue_status: 'started' },
      'transferred',
    ],
    ['active while queued', { completed: false, queue_status: 'queued' }, 'active'],
    ['active while started', { completed: false, queue_status: 'started', status: null }, 'active'],
    ['active with only an id', {}, 'active'],
    ['completed', { completed: true, queue_status: 'complete', status: 'completed' }, 'completed'],
    [
      'completed from queue_status alone (older payloads)',
      { completed: true, queue_status: 'completed' },
      'completed',
    ],
    ['completed from status alone', { status: 'completed' }, 'completed'],
    ['failed', { completed: true, status: 'failed' }, 'failed'],
    ['busy', { completed: true, status: 'busy' }, 'failed'],
    ['no-answer', { completed: true, status: 'no-answer' }, 'failed'],
    ['canceled', { completed: true, status: 'canceled' }, 'failed'],
    ['busy without the completed flag', { status: 'busy' }, 'failed'],
    [
      'queue *_error ends the call as failed',
      { completed: false, queue_status: 'allocation_error' },
      'failed',
    ],
    ['status *_error', { completed: true, status: 'dispatch_error' }, 'failed'],
    ['unknown status value', { completed: true, queue_status: 'complete', status: 'voicemail' }, 'unknown'],
    ['status unknown', { completed: true, status: 'unknown' }, 'unknown'],
    ['case-insensitive', { completed: true, status: 'Completed' }, 'completed'],
  ];
  for (const [name, fields, expected] of cases) {
    it(name, () => expect(mapBlandStatus(payload(fields))).toBe(expected));
  }
});

describe('blandCallSchema', () => {
  it('accepts unknown extra fields and numeric call ids', () => {
    const parsed = parseBlandCall({ call_id: 12345, whatever: { deep: [1, 2] }, completed: 'true' });
    expect(parsed.success).toBe(true);
    if (parsed.success) {
      expect(parsed.call.providerCallId).toBe('12345');
      expect(parsed.payload).not.toHaveProperty('whatever');
    }
  });

  it('caps every string we store', () => {
    expect(parseBlandCall({ call_id: 'x'.repeat(201) }).success).toBe(false);
    expect(parseBlandCall({ call_id: 'c', to: '1'.repeat(41) }).success).toBe(false);
    expect(parseBlandCall({ call_id: 'c', recording_url: `https://a.b/${'x'.repeat(2048)}` }).success).toBe(
      false,
    );
    expect(
      parseBlandCall({ call_id: 'c', transcripts: [{ text: 'x'.repeat(20_001), user: 'user' }] }).success,
    ).toBe(false);
    const many = Array.from({ length: 2001 }, (_, i) => ({ id: i, text: 'hi', user: 'user' }));
    expect(parseBlandCall({ call_id: 'c', transcripts: many }).success).toBe(false);
    expect(parseBlandCall({ call_id: 'c', transcripts: many.slice(0, 2000) }).success).toBe(true);
  });

  it('is strict about the types of fields we use', () => {
    const bad = parseBlandCall({ call_id: 'c', corrected_duration: 'soon' });
    expect(bad).toEqual({ success: false, message: 'corrected_duration: Expected a number' });
    expect(parseBlandCall({ call_id: 'c', price: { amount: 1 } }).success).toBe(false);
    expect(parseBlandCall({ call_id: '' }).success).toBe(false);
    expect(parseBlandCall({}).success).toBe(false);
  });
});

describe('classifyWebhookBody', () => {
  it('recognises a post-call body', () => {
    const result = classifyWebhookBody(documented);
    expect(result.kind).toBe('call');
    if (result.kind === 'call') expect(result.call.providerCallId).toBe(documented.call_id);
  });

  it('recognises a live event', () => {
    const body = { message: 'Call connected', call_id: 'c-9', category: 'call', log_level: 'info' };
    expect(isBlandEventBody(body)).toBe(true);
    expect(classifyWebhookBody(body)).toEqual({ kind: 'event', callId: 'c-9', event: body });
  });

  it("reads Bland's delayed combined webhook (the whole call plus event_type) as a call", () => {
    const combined = { ...documented, event_type: 'call.transferred', transferred_to: '+15550009999' };
    expect(isBlandEventBody(combined)).toBe(false);
    const body = classifyWebhookBody(combined, Date.parse('2024-01-01T00:00:00Z'));
    expect(body.kind).toBe('call');
    if (body.kind === 'call') expect(body.call).toMatchObject({ status: 'transferred', durationSeconds: 71 });
  });

  it('recognises an event_type follow-up even when it carries call fields', () => {
    const body = { event_type: 'call.analysis', call_id: 'c-9', status: 'completed', to: '+1555' };
    const result = classifyWebhookBody(body);
    expect(result.kind).toBe('event');
    if (result.kind === 'event') expect(result.callId).toBe('c-9');
  });

  it('acknowledges an event without a call id', () => {
    expect(classifyWebhookBody({ message: 'hello', log_level: 'debug' })).toMatchObject({
      kind: 'event',
      callId: null,
    });
  });

  it('calls out what is wrong with anything else', () => {
    expect(classifyWebhookBody(null)).toEqual({ kind: 'invalid', message: 'Expected a JSON object' });
    expect(classifyWebhookBody([documented])).toEqual({ kind: 'invalid', message: 'Expected a JSON object' });
    expect(classifyWebhookBody('call')).toMatchObject({ kind: 'invalid' });
    expect(classifyWebhookBody({ to: '+15550100' })).toEqual({
      kind: 'invalid',
      message: 'Invalid call: call_id: Required',
    });
    expect(classifyWebhookBody({ message: 'x'.repeat(20_001), call_id: 'c' })).toMatchObject({
      kind: 'invalid',
    });
  });
});

describe('parseBlandTime', () => {
  it('reads Bland timestamps, zone-less ones as UTC', () => {
    expect(parseBlandTime('2024-04-27T23:51:18.025251+00:00')).toBe(Date.parse('2024-04-27T23:51:18.025Z'));
    expect(parseBlandTime('2024-04-27 23:51:18')).toBe(Date.parse('2024-04-27T23:51:18Z'));
    expect(parseBlandTime('yesterday')).toBeNull();
    expect(parseBlandTime(null)).toBeNull();
  });
});

/**
 * fixtures/bland-call.json and bland-corrected.json: the conversation of fixtures/README.md as
 * Bland's call details and its corrected transcript. The segments below are the README's table
 * (the agent's lines 3, 5 and 9 split as Bland splits them), written out independently.
 */
const FIXTURE_SEGMENTS = [
  ['agent', 0, 4000],
  ['user', 4500, 7000],
  ['agent', 8200, 9000],
  ['agent', 9000, 12000],
  ['user', 11800, 14000],
  ['agent', 17500, 18100],
  ['agent', 18100, 19600],
  ['agent', 19600, 21000],
  ['user', 20000, 23000],
  ['agent', 27500, 31000],
  ['user', 37000, 39000],
  ['agent', 40200, 42600],
  ['agent', 42600, 45000],
  ['user', 45500, 47000],
  ['agent', 48000, 50000],
];
const FIXTURE_NOW = Date.parse('2026-03-05T00:00:00Z');
const linesOf = (transcript: { role: string; startMs?: number; endMs?: number }[] | null | undefined) =>
  (transcript ?? []).map((l) => [l.role, l.startMs, l.endMs]);
const segment = (over: Record<string, unknown> = {}) => ({
  start: 1.5,
  end: 2.25,
  text: 'Hello.',
  speaker: 2,
  speaker_label: 'assistant',
  confidence: 0.8,
  ...over,
});

describe('Bland timed transcript and conversation', () => {
  it('reads the fixture: the post-call lines are untimed (approx), the agent ended the call', () => {
    const parsed = parseBlandCall(blandFixture, FIXTURE_NOW);
    if (!parsed.success) throw new Error(parsed.message);
    const { transcript, conversation } = parsed.call;
    expect(transcript?.map((l) => l.role)).toEqual([
      ...FIXTURE_SEGMENTS.filter((_, i) => ![3, 6, 7, 12].includes(i)).map(([role]) => role),
      'agent', // "Ended call: …", the agent's action
    ]);
    expect(transcript?.some((l) => 'startMs' in l || 'endMs' in l)).toBe(false);
    expect(conversation).toEqual({ precision: 'approx', endedBy: 'agent', sentiment: null });
    expect(parsed.call.durationSeconds).toBe(52);
  });

  it('with its corrected transcript: the segments, timed in whole ms (precision segment)', () => {
    const parsed = parseBlandCall(blandFixture, FIXTURE_NOW);
    if (!parsed.success) throw new Error(parsed.message);
    const call = withCorrectedTranscript(parsed.call, parsed.payload, correctedFixture.corrected);
    expect(linesOf(call.transcript)).toEqual(FIXTURE_SEGMENTS);
    // Bland's leading space is not kept.
    expect(call.transcript?.[0].text).toBe(
      'Thanks for calling Bright Smile Dental, this is Ava. How can I help you today?',
    );
    expect(call.conversation).toEqual({ precision: 'segment', endedBy: 'agent', sentiment: null });
    // Everything else is the call as read.
    expect({ ...call, transcript: null, conversation: null }).toEqual({
      ...parsed.call,
      transcript: null,
      conversation: null,
    });
  });

  it('reads the segments the delayed webhook carries (corrected_transcript) the same way', () => {
    const body = { ...blandFixture, corrected_transcript: correctedFixture.corrected, event_type: 'call' };
    const read = classifyWebhookBody(body, FIXTURE_NOW);
    if (read.kind !== 'call') throw new Error(read.kind);
    expect(linesOf(read.call.transcript)).toEqual(FIXTURE_SEGMENTS);
    expect(read.call.conversation?.precision).toBe('segment');
  });

  it("reads Bland's own documented corrected transcript (specs/bland/documented-examples.json)", () => {
    const lines = mapBlandCorrected(blandExamples['corrected-transcript'].corrected);
    expect(lines).toHaveLength(16);
    expect(lines?.[0]).toEqual({
      role: 'agent',
      text: "Hi, I'm calling about a pizza order.",
      startMs: 69,
      endMs: 2551,
    });
    expect(lines?.[2]).toEqual({ role: 'user', text: 'Yeah, my name is John.', startMs: 4932, endMs: 8074 });
    expect(lines?.map((l) => l.role).join(' ')).toBe(
      'agent agent user agent agent agent user agent agent agent user user agent agent agent agent',
    );
    // The delayed webhook's example carries the same segments as corrected_transcript.
    const delayed = classifyWebhookBody(blandExamples['post-call-webhook-delayed'], FIXTURE_NOW);
    if (delayed.kind !== 'call') throw new Error(delayed.kind);
    expect(delayed.call.conversation).toEqual({ precision: 'segment', endedBy: 'transfer', sentiment: null });
    expect(linesOf(delayed.call.transcript)).toEqual([
      ['agent', 384, 4096],
      ['user', 5056, 6176],
      ['agent', 8704, 14848],
      ['user', 16224, 18464],
    ]);
  });

  it('keeps the post-call lines when the segments cannot stand for the transcript', () => {
    const parsed = parseBlandCall(blandFixture, FIXTURE_NOW);
    if (!parsed.success) throw new Error(parsed.message);
    const corrected = correctedFixture.corrected;
    const broken: unknown[] = [
      null,
      'segments',
      [],
      [{ text: '   ', start: 1, end: 2, speaker_label: 'user' }],
      // Bland's older answer: a diarization number only, which says nothing of who spoke.
      corrected.map(({ speaker_label: _l, ...rest }) => rest),
      [...corrected, segment({ speaker_label: 'agent-action' })],
      // Not a speaker, though a plain object would have a "constructor".
      [...corrected, segment({ speaker_label: 'constructor' })],
      [...corrected, segment({ start: 3, end: 2 })],
      [...corrected, segment({ start: '1.5' })],
      [...corrected, segment({ end: 90_000 })],
      [...corrected, segment({ end: Number.NaN })],
      [...corrected, segment({ text: 5 })],
      [...corrected, segment({ text: 'x'.repeat(20_001) })],
      [...corrected, segment({ speaker_label: 5 })],
      [...corrected, null],
      [...corrected, [1, 2]],
    ];
    for (const segments of broken) {
      expect(mapBlandCorrected(segments), JSON.stringify(segments)?.slice(0, 80)).toBeNull();
      expect(withCorrectedTranscript(parsed.call, parsed.payload, segments)).toBe(parsed.call);
    }
    // Labels read whatever their case; a segment without words is left out.
    expect(
      mapBlandCorrected([segment({ speaker_label: 'User' }), segment({ text: '', start: 3, end: 4 })]),
    ).toEqual([{ role: 'user', text: 'Hello.', startMs: 1500, endMs: 2250 }]);
  });

  it.each([
    [{ call_ended_by: 'ASSISTANT' }, 'agent'],
    [{ call_ended_by: 'USER' }, 'caller'],
    [{ call_ended_by: 'user' }, 'caller'],
    [{ call_ended_by: 'SYSTEM' }, 'system'],
    [{}, 'unknown'],
    [{ call_ended_by: null }, 'unknown'],
    [{ call_ended_by: 'USER', transferred_to: '+14155550199' }, 'transfer'],
    [{ call_ended_by: 'ASSISTANT', status: 'transferred' }, 'transfer'],
    [{ transferred_to: '  ' }, 'unknown'],
  ])('%j: ended by %s', (fields, endedBy) => {
    expect(blandEndedBy(payload(fields))).toBe(endedBy);
  });

  it('a call without transcripts (a list item) has no conversation', () => {
    expect(mapBlandCall(payload({ completed: true, call_ended_by: 'USER' })).conversation).toBeUndefined();
    expect(mapBlandCall(payload({ transcripts: [] })).conversation).toEqual({
      precision: 'approx',
      endedBy: 'unknown',
      sentiment: null,
    });
  });

  it('reads a stored payload back (no `transcripts` kept): who ended it, and segments when they came', () => {
    const { transcripts: _t, concatenated_transcript: _c, ...kept } = blandFixture;
    for (const stored of [kept, JSON.stringify(kept)])
      expect(readBlandStoredPayload(stored)).toEqual({
        transcript: null,
        conversation: { precision: 'approx', endedBy: 'agent', sentiment: null },
      });
    const delayed = readBlandStoredPayload({ ...kept, corrected_transcript: correctedFixture.corrected });
    expect(linesOf(delayed.transcript)).toEqual(FIXTURE_SEGMENTS);
    expect(delayed.conversation).toEqual({ precision: 'segment', endedBy: 'agent', sentiment: null });
    for (const unreadable of [null, undefined, 3, '{"call_id": ', '[]', [], {}, { call_id: '..' }])
      expect(readBlandStoredPayload(unreadable)).toEqual({ transcript: null, conversation: null });
  });
});

describe('readBlandCallFast (the sync reads call objects without zod)', () => {
  const state = { transcriptSeq: 0 };
  const generated = Array.from({ length: 40 }, (_, i) =>
    JSON.parse(
      JSON.stringify(
        generateCall(state, {
          createdAtMs: Date.UTC(2026, 10, 1) + i * 60_000,
          agentNumber: '+15550001111',
          baseUrl: 'http://127.0.0.1:1',
          overrides: i % 5 === 0 ? { status: 'in-progress', completed: false } : {},
        }),
      ),
    ),
  );
  const examples = blandExamples as Record<string, unknown>;
  const valid: unknown[] = [
    ...generated,
    documented,
    blandFixture,
    examples['call-details'],
    examples['post-call-webhook'],
    examples['post-call-webhook-delayed'],
    { call_id: 42 },
    { call_id: '  padded-id  ', pathway_id: '  ', price: ' 0.5 ', call_length: 2, completed: 'true' },
    { call_id: 'x', to: null, summary: '  kept  ', analysis: [1], variables: null, transcripts: null },
    { call_id: 'x', transcripts: [{ id: 3, text: 'hi', extra: 1 }, {}], answered_by: 7 },
    { call_id: 'x', corrected_transcript: [{ start: 0 }], disposition_tag: undefined },
  ];
  const invalid: unknown[] = [
    null,
    [],
    'call',
    {},
    { call_id: '' },
    { call_id: '../calls' },
    { call_id: -1 },
    { call_id: 1.5 },
    { call_id: 'x'.repeat(201) },
    { call_id: 'x', to: 5 },
    { call_id: 'x', to: '1'.repeat(41) },
    { call_id: 'x', call_length: 'soon' },
    { call_id: 'x', call_length: '' },
    { call_id: 'x', call_length: 1441 },
    { call_id: 'x', corrected_duration: -1 },
    { call_id: 'x', price: 1001 },
    { call_id: 'x', completed: 'yes' },
    { call_id: 'x', pathway_id: 'a/b' },
    { call_id: 'x', pathway_id: 5 },
    { call_id: 'x', transcripts: {} },
    { call_id: 'x', transcripts: [null] },
    { call_id: 'x', transcripts: [[]] },
    { call_id: 'x', transcripts: [{ text: 5 }] },
    { call_id: 'x', transcripts: [{ id: true }] },
    { call_id: 'x', transcripts: [{ user: 'u'.repeat(101) }] },
    { call_id: 'x', transcripts: Array.from({ length: 2001 }, () => ({})) },
  ];

  it('answers what blandCallSchema answers for every valid call object', () => {
    for (const body of valid) {
      const schema = blandCallSchema.safeParse(body);
      expect(schema.success).toBe(true);
      expect(readBlandCallFast(body)).toStrictEqual(schema.data);
    }
  });

  it('leaves every object the schema refuses to the schema', () => {
    for (const body of invalid) {
      expect(blandCallSchema.safeParse(body).success).toBe(false);
      expect(readBlandCallFast(body)).toBeNull();
    }
  });

  it('parseBlandCall still answers the schema’s message for a refused call', () => {
    expect(parseBlandCall({ call_id: 'x', completed: 'yes' })).toEqual({
      success: false,
      message: expect.stringMatching(/^completed: /),
    });
  });
});
