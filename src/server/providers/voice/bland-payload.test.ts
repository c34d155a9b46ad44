import { describe, expect, it } from 'vitest';
import {
  type BlandCallPayload,
  blandCallSchema,
  classifyWebhookBody,
  isBlandEventBody,
  mapBlandCall,
  mapBlandStatus,
  parseBlandCall,
  parseBlandTime,
} from './bland-payload';

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
