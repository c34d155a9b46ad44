/**
 * Vapi's and Retell's payloads as their published APIs describe them, read into NormalizedCall:
 * statuses, parties, durations, costs, transcripts and insights, signatures, and refusals.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import blandFixture from './fixtures/bland-call.json';
import retellFixture from './fixtures/retell-call.json';
import vapiFixture from './fixtures/vapi-end-of-call-report.json';
import { createVoiceProviders } from './registry';
import { parseRetellCall } from './retell-payload';
import { parseRetellWebhook, retellSignature } from './retell-webhook';
import { callOfReport, parseVapiCall } from './vapi-payload';
import { parseVapiWebhook } from './vapi-webhook';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

const vapiCall = (over: Record<string, unknown> = {}) => ({
  id: '0c4f8a52-6a43-4f0e-9f3e-2d5b8c1a7e90',
  orgId: 'org',
  type: 'inboundPhoneCall',
  createdAt: iso(NOW - 120_000),
  startedAt: iso(NOW - 120_000),
  endedAt: iso(NOW - 30_000),
  status: 'ended',
  endedReason: 'customer-ended-call',
  cost: 0.21,
  assistantId: 'asst-1',
  customer: { number: '+14155550111' },
  phoneNumber: { number: '+14155550100' },
  analysis: { summary: 'Booked.', structuredData: { booked: true }, successEvaluation: true },
  artifact: {
    recordingUrl: 'https://storage.vapi.ai/rec.wav',
    messages: [
      { role: 'system', message: 'prompt', time: NOW - 120_000 },
      { role: 'bot', message: 'Hello', time: NOW - 110_000 },
      { role: 'user', message: 'Hi there', time: NOW - 100_000 },
      { role: 'tool_calls', message: '', time: NOW - 90_000 },
    ],
  },
  ...over,
});

describe('Vapi calls', () => {
  it('maps an ended inbound call with its artifact and analysis', () => {
    const parsed = parseVapiCall(vapiCall(), NOW);
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    expect(parsed.call).toMatchObject({
      fromNumber: '+14155550111',
      toNumber: '+14155550100',
      durationSeconds: 90,
      status: 'completed',
      pathwayId: 'asst-1',
      recordingUrl: 'https://storage.vapi.ai/rec.wav',
      priceUsd: 0.21,
      transcript: [
        { role: 'agent', text: 'Hello', timestamp: iso(NOW - 110_000) },
        { role: 'user', text: 'Hi there', timestamp: iso(NOW - 100_000) },
      ],
      insights: { summary: 'Booked.', answeredBy: 'human', endedBy: 'user', dispositionTag: 'true' },
    });
  });

  it.each([
    [{ status: 'in-progress', endedReason: undefined, endedAt: undefined }, 'active'],
    [{ endedReason: 'assistant-forwarded-call' }, 'transferred'],
    [{ endedReason: 'customer-did-not-answer' }, 'failed'],
    [{ endedReason: 'pipeline-error-openai-llm-failed' }, 'failed'],
    [{ endedReason: 'voicemail' }, 'completed'],
  ])('reads %j as %s', (over, status) => {
    const parsed = parseVapiCall(vapiCall(over), NOW);
    expect(parsed.success && parsed.call.status).toBe(status);
  });

  it('puts an outbound call the other way round and reads voicemail', () => {
    const parsed = parseVapiCall(vapiCall({ type: 'outboundPhoneCall', endedReason: 'voicemail' }), NOW);
    expect(parsed.success && parsed.call).toMatchObject({
      fromNumber: '+14155550100',
      toNumber: '+14155550111',
      insights: { answeredBy: 'voicemail' },
    });
  });

  it('refuses unsafe ids, future calls and absurd costs', () => {
    expect(parseVapiCall(vapiCall({ id: '../call' }), NOW).success).toBe(false);
    expect(parseVapiCall(vapiCall({ createdAt: iso(NOW + 3_600_000) }), NOW).success).toBe(false);
    expect(parseVapiCall(vapiCall({ cost: 5_000 }), NOW).success).toBe(false);
  });
});

describe('Vapi server messages', () => {
  const report = JSON.stringify({
    message: {
      type: 'end-of-call-report',
      endedReason: 'customer-ended-call',
      artifact: vapiCall().artifact,
      analysis: vapiCall().analysis,
      startedAt: iso(NOW - 120_000),
      endedAt: iso(NOW - 30_000),
      call: {
        id: vapiCall().id,
        createdAt: iso(NOW - 120_000),
        status: 'in-progress',
        type: 'inboundPhoneCall',
      },
    },
  });

  it('takes the report over its call snapshot: an ended call', () => {
    const parsed = parseVapiWebhook(report, {}, null, NOW);
    expect(parsed.kind).toBe('call');
    if (parsed.kind === 'call')
      expect(parsed.call).toMatchObject({ status: 'completed', durationSeconds: 90 });
  });

  it('checks each of Vapi’s credential forms when a secret is set', () => {
    const secret = 'server-secret';
    const hmac = createHmac('sha256', secret).update(report).digest('hex');
    for (const headers of [
      { 'x-vapi-secret': secret },
      { authorization: `Bearer ${secret}` },
      { 'x-vapi-signature': hmac },
      { 'x-vapi-signature': `sha256=${hmac}` },
    ])
      expect(parseVapiWebhook(report, headers, secret, NOW).kind, JSON.stringify(headers)).toBe('call');
    for (const headers of [{}, { 'x-vapi-secret': 'other' }, { 'x-vapi-signature': hmac.replace(/.$/, '0') }])
      expect(parseVapiWebhook(report, headers, secret, NOW).kind).toBe('unauthorized');
  });

  it('acknowledges other message types and refuses what is not a server message', () => {
    expect(
      parseVapiWebhook(JSON.stringify({ message: { type: 'hang', call: { id: 'c-1' } } }), {}, null, NOW),
    ).toEqual({
      kind: 'event',
      callId: 'c-1',
    });
    expect(parseVapiWebhook('{"type":"end-of-call-report"}', {}, null, NOW).kind).toBe('invalid');
    expect(parseVapiWebhook('not json', {}, null, NOW).kind).toBe('invalid');
  });
});

const retellCall = (over: Record<string, unknown> = {}) => ({
  call_type: 'phone_call',
  call_id: 'call_2b6e9f0a4c8d',
  agent_id: 'agent_1',
  call_status: 'ended',
  direction: 'inbound',
  from_number: '+14155550122',
  to_number: '+14155550123',
  start_timestamp: NOW - 100_000,
  end_timestamp: NOW - 40_000,
  duration_ms: 60_000,
  disconnection_reason: 'agent_hangup',
  transcript_object: [
    { role: 'agent', content: 'Hello', words: [] },
    { role: 'user', content: 'Hi', words: [] },
    { role: 'transfer_target', content: 'Front desk here', words: [] },
  ],
  recording_url: 'https://dxc03zgurdly9.cloudfront.net/rec.wav',
  call_analysis: {
    call_summary: 'Fine.',
    user_sentiment: 'Neutral',
    call_successful: false,
    in_voicemail: false,
  },
  call_cost: {
    combined_cost: 12.5,
    product_costs: [],
    total_duration_seconds: 60,
    total_duration_unit_price: 0.2,
  },
  ...over,
});

describe('Retell calls', () => {
  it('maps a call with cents, roles and analysis', () => {
    const parsed = parseRetellCall(retellCall(), NOW);
    expect(parsed.success && parsed.call).toMatchObject({
      durationSeconds: 60,
      status: 'completed',
      createdAt: NOW - 100_000,
      priceUsd: 0.125,
      transcript: [
        { role: 'agent', text: 'Hello' },
        { role: 'user', text: 'Hi' },
        { role: 'agent', text: 'Front desk here' },
      ],
      insights: {
        summary: 'Fine.',
        answeredBy: 'human',
        endedBy: 'assistant',
        dispositionTag: 'unsuccessful',
        analysis: { user_sentiment: 'Neutral', call_successful: false, in_voicemail: false },
      },
    });
  });

  it.each([
    [{ call_status: 'ongoing' }, 'active'],
    [{ disconnection_reason: 'call_transfer' }, 'transferred'],
    [{ call_status: 'not_connected', disconnection_reason: 'dial_no_answer' }, 'failed'],
    [{ disconnection_reason: 'error_llm_websocket_lost_connection' }, 'failed'],
  ])('reads %j as %s', (over, status) => {
    const parsed = parseRetellCall(retellCall(over), NOW);
    expect(parsed.success && parsed.call.status).toBe(status);
  });
});

describe('Retell webhooks', () => {
  const key = 'key_abc';
  const body = JSON.stringify({ event: 'call_analyzed', call: retellCall() });

  it('accepts its signature within five minutes and refuses others', () => {
    expect(
      parseRetellWebhook(body, { 'x-retell-signature': retellSignature(body, key, NOW - 60_000) }, key, NOW)
        .kind,
    ).toBe('call');
    for (const signature of [
      retellSignature(body, key, NOW - 6 * 60_000),
      retellSignature(body, 'key_other', NOW),
      retellSignature(`${body} `, key, NOW),
      'v=1,d=zz',
      '',
    ])
      expect(parseRetellWebhook(body, { 'x-retell-signature': signature }, key, NOW).kind).toBe(
        'unauthorized',
      );
  });

  it('stores call_ended and call_analyzed, and only acknowledges the rest', () => {
    expect(
      parseRetellWebhook(JSON.stringify({ event: 'call_ended', call: retellCall() }), {}, null, NOW).kind,
    ).toBe('call');
    expect(
      parseRetellWebhook(
        JSON.stringify({ event: 'call_started', call: { call_id: 'call_1' } }),
        {},
        null,
        NOW,
      ),
    ).toEqual({
      kind: 'event',
      callId: 'call_1',
    });
    expect(parseRetellWebhook(JSON.stringify({ call: retellCall() }), {}, null, NOW).kind).toBe('invalid');
  });
});

describe('readStoredPayload (backfill)', () => {
  const voices = createVoiceProviders({
    blandApiUrl: 'http://127.0.0.1:9',
    vapiApiUrl: 'http://127.0.0.1:9',
    retellApiUrl: 'http://127.0.0.1:9',
  });
  const stored = {
    bland: blandFixture,
    vapi: callOfReport(vapiFixture.message as Record<string, unknown>),
    retell: retellFixture,
  };

  it('every adapter has it, answering at once (not a promise) through the registry', () => {
    for (const id of ['bland', 'vapi', 'retell'] as const) {
      const read = voices[id].readStoredPayload;
      if (!read) throw new Error(`${id} has no readStoredPayload`);
      const reading = read(JSON.stringify(stored[id]));
      expect(reading, id).not.toBeInstanceOf(Promise);
      expect(reading.conversation?.endedBy, id).toBe(id === 'retell' ? 'caller' : 'agent');
      expect(read('not json'), id).toEqual({ transcript: null, conversation: null });
    }
  });
});
