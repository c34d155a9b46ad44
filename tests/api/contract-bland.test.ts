/**
 * Contract tests for Bland, against what no one here wrote (specs/bland): the example
 * bodies Bland publishes on docs.bland.ai, and an OpenAPI description of Bland's API written from
 * those pages by a third party. Bland's own bodies go through our webhook endpoint and our call
 * parser; every request our Bland adapter sends and every answer and webhook our stand-in gives
 * is held against the description and the examples, so neither side can drift unnoticed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIM_PATHWAYS, startVoiceSim, type VoiceSim } from '../../sim/voice-provider';
import { createBlandProvider } from '../../src/server/providers/voice/bland';
import { blandListResponseSchema, parseBlandCall } from '../../src/server/providers/voice/bland-payload';
import type { VoiceProvider } from '../../src/server/providers/voice/types';
import { deliverWebhook } from '../helpers/bland';
import {
  blandCallShapeProblems,
  blandEventShapeProblems,
  blandExamples,
  blandOpenApi,
  blandSendCallShapeProblems,
} from '../helpers/bland-documented';
import { createClient } from '../helpers/factories';
import { OpenApiContract } from '../helpers/openapi-contract';
import { type RecordingProxy, startRecordingProxy } from '../helpers/recording-proxy';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const KEY = 'sk_contract_bland';
type Json = Parameters<typeof blandCallShapeProblems>[0];

describe(`Bland contract (${TEST_DB})`, () => {
  const contract = new OpenApiContract({ bland: blandOpenApi });
  let t: TestApp;
  let sim: VoiceSim;
  let proxy: RecordingProxy;
  let bland: VoiceProvider;
  let receiver: Server;
  let receiverUrl: string;
  const delivered: { body: string; signature: string | undefined }[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    sim = await startVoiceSim();
    proxy = await startRecordingProxy(sim.url);
    bland = createBlandProvider({ baseUrl: proxy.url, timeoutMs: 5_000, retryBaseMs: 10, maxRetries: 1 });
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const signature = req.headers['x-webhook-signature'];
        delivered.push({ body: Buffer.concat(chunks).toString('utf8'), signature: signature as string });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    await proxy?.close();
    await sim?.close();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
    await t?.close();
  });

  const deliver = (token: string, body: unknown) => deliverWebhook(t.app, token, body);
  const callsOf = (clientId: string) =>
    t.deps.db.selectFrom('calls').selectAll().where('client_id', '=', clientId).execute();

  it("stores Bland's documented post-call webhook bodies as Bland means them", async () => {
    const client = await createClient(t.deps, { per_minute_rate_cents: 30 });
    const standard = blandExamples['post-call-webhook'];
    const delayed = blandExamples['post-call-webhook-delayed'];
    for (const body of [standard, delayed]) {
      const res = await deliver(client.webhook_token, body);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ received: true, kind: 'call' });
    }
    const rows = await callsOf(client.id);
    const byId = new Map(rows.map((r) => [r.provider_call_id, r]));
    expect(byId.get(String(standard.call_id))).toMatchObject({
      from_number: '+15559876543',
      to_number: '+15551234567',
      // corrected_duration is a string of seconds; call_length is minutes.
      duration_seconds: 11,
      status: 'transferred',
      answered_by: 'human',
      call_ended_by: 'assistant',
      error_message: 'Account not allowed to call +12345678901',
      disposition_tag: 'COMPLETED_ACTION',
      pathway_id: 'b71c4c5c-33e3-496b-a5f4-91b7e8e6a931',
      provider_price_micros: 17_000,
      // 11 s at 30 ¢ a minute.
      cost_micros: 55_000,
      created_at: Date.parse('2025-09-12T20:39:03.168+00:00'),
      summary: String(standard.summary),
    });
    const transcript = JSON.parse(byId.get(String(standard.call_id))?.transcript ?? '[]');
    expect(transcript.map((l: { role: string }) => l.role)).toEqual([
      'user',
      'agent',
      'user',
      'agent',
      'agent',
    ]);
    expect(transcript[0]).toMatchObject({ text: 'Hello?', timestamp: '2025-09-12T20:39:13.173+00:00' });
    expect(byId.get(String(delayed.call_id))).toMatchObject({
      from_number: '+14159438185',
      to_number: '+447931841239',
      duration_seconds: 19,
      status: 'transferred',
      call_ended_by: 'user',
      provider_price_micros: 29_000,
    });
    expect(JSON.parse(byId.get(String(delayed.call_id))?.variables_json ?? '{}')).toMatchObject({
      country: 'GB',
      short_to: '7931841239',
    });
  });

  it('acknowledges every live event Bland documents, its citations event and SMS webhooks, storing no call', async () => {
    const client = await createClient(t.deps);
    const events = blandExamples['live-events'];
    expect(events.length).toBeGreaterThanOrEqual(10);
    for (const event of events) {
      const res = await deliver(client.webhook_token, event);
      expect(res.statusCode, JSON.stringify(event).slice(0, 80)).toBe(200);
      expect(res.json()).toMatchObject({ received: true, kind: 'event' });
    }
    // SMS conversations may share the URL; their status webhook carries a call's transcript fields
    // (docs.bland.ai, "SMS Conversation Webhooks": the fields listed there, our values).
    const smsStatus = {
      conversation_id: 'c0a80101-0000-4000-8000-000000000001',
      phone_number: '+15551234567',
      agent_number: '+15559876543',
      channel: 'sms',
      pathway_id: null,
      pathway_version: null,
      status: 'ended',
      message_count: 4,
      concatenated_transcript: 'user: Hi \n assistant: Hello!',
      summary: 'A short SMS exchange.',
      variables: {},
      metadata: {},
      pathway_tags: [],
    };
    const res = await deliver(client.webhook_token, smsStatus);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ received: true, kind: 'event' });
    expect(await callsOf(client.id)).toHaveLength(0);
  });

  it("reads Bland's documented call-details and list answers", () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const details = parseBlandCall(blandExamples['call-details'], now);
    expect(details.success).toBe(true);
    if (!details.success) return;
    expect(details.call).toMatchObject({
      providerCallId: '12345678-1234-1234-1234-123456789012',
      durationSeconds: 45,
      status: 'completed',
      pathwayId: 'b1693602-c05e-4b5c-b187-d0189a42aebf',
      priceUsd: 0.068,
      createdAt: Date.parse('2024-04-27T23:51:18.025Z'),
      recordingUrl: null,
    });
    expect(details.call.insights).toMatchObject({ answeredBy: 'human', endedBy: 'assistant' });
    expect(details.call.transcript?.map((l) => l.role)).toEqual(['user', 'agent']);

    const list = blandListResponseSchema.safeParse(blandExamples['list-calls']);
    expect(list.success).toBe(true);
    const items = (list.data?.calls ?? []).map((item) => parseBlandCall(item, now));
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      success: true,
      // A list item has no corrected_duration: call_length minutes, rounded to seconds.
      call: {
        providerCallId: 'c1234567-89ab-cdef-0123-456789abcdef',
        durationSeconds: 50,
        status: 'completed',
      },
    });
  });

  it('every request the adapter sends and every answer the stand-in gives is as Bland documents it', async () => {
    sim.addKey(KEY);
    sim.addPathway(SIM_PATHWAYS.booking ?? Object.values(SIM_PATHWAYS)[0]!, 'Booking');
    sim.addCalls(KEY, { count: 5 });
    sim.addCalls(KEY, { count: 1, overrides: { status: 'no-answer' } });
    sim.addCalls(KEY, { count: 1, overrides: { transferred_to: '+15550001111' } });
    sim.addCalls(KEY, { count: 1, overrides: { completed: false } });

    await bland.checkKey(KEY);
    const pages = [];
    let cursor: string | undefined;
    do {
      const page = await bland.listCalls(KEY, {
        startDate: new Date(Date.now() - 30 * 86_400_000),
        cursor,
        limit: 3,
      });
      pages.push(page);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    const listed = pages.flatMap((p) => p.calls);
    expect(listed).toHaveLength(8);
    for (const call of listed) await bland.getCall(KEY, call.providerCallId);
    const withPathway = listed.find((c) => c.pathwayId);
    if (withPathway?.pathwayId) await bland.getPathwayName(KEY, withPathway.pathwayId);
    const recorded = listed.find((c) => c.recordingUrl);
    if (recorded) {
      const stream = await bland.streamRecording(KEY, recorded.providerCallId);
      for await (const _ of stream.body) {
        // Drained: the contract concerns the exchange, not the audio.
      }
    }
    // Optional in the interface (Vapi and Retell have none); the operations below prove it ran.
    await bland.placeTestCall?.(KEY, { phoneNumber: '+14155550123', webhookUrl: receiverUrl });

    // The corrected transcript is documented by Bland but absent from the OpenAPI copy
    // the contract holds: its answers are checked against Bland's documented example below.
    const isCorrected = (e: { path: string }) => /^\/v1\/calls\/[^/]+\/correct$/.test(e.path);
    const described = proxy.exchanges.filter((e) => !isCorrected(e));
    const corrected = proxy.exchanges.filter(isCorrected);
    expect(corrected.length).toBeGreaterThan(0);
    const documentedKeys = Object.keys(blandExamples['corrected-transcript'].corrected[0] ?? {}).sort();
    for (const e of corrected.filter((e) => e.status === 200)) {
      const segments = (JSON.parse(e.responseBody) as { corrected: Json[] }).corrected;
      for (const segment of segments) expect(Object.keys(segment ?? {}).sort()).toEqual(documentedKeys);
    }
    const operations = new Set(
      described.map((e) => `${e.method} ${contract.operationFor(e.method, e.path)?.template}`),
    );
    expect(operations).toEqual(
      new Set([
        'GET /v1/calls',
        'GET /v1/calls/{call_id}',
        'GET /v1/pathway/{pathway_id}',
        'GET /v1/recordings/{call_id}',
        'POST /v1/calls',
      ]),
    );
    expect(described.flatMap((e) => contract.check(e))).toEqual([]);

    // Beyond the description: each call object against the fields and types Bland's examples show.
    const problems: string[] = [];
    for (const e of described) {
      const body = e.responseType?.includes('json') ? (JSON.parse(e.responseBody) as Json) : null;
      if (e.method === 'GET' && e.path === '/v1/calls') {
        for (const [i, item] of ((body as { calls: Json[] }).calls ?? []).entries())
          problems.push(...blandCallShapeProblems(item, `GET /v1/calls calls[${i}]`));
      } else if (e.method === 'GET' && e.path.startsWith('/v1/calls/')) {
        problems.push(...blandCallShapeProblems(body, `GET ${e.path}`));
      } else if (e.method === 'POST' && e.path === '/v1/calls') {
        problems.push(...blandSendCallShapeProblems(body));
      }
    }
    expect(problems).toEqual([]);
  });

  it("the stand-in's webhooks have the shape of Bland's documented bodies", async () => {
    delivered.length = 0;
    const placed = await sim.placeTestCall({
      webhookUrl: receiverUrl,
      apiKey: KEY,
      signingSecret: 'whsec_c',
    });
    await sim.sendEvent({ webhookUrl: receiverUrl, call_id: placed.call_id, message: 'Call connected' });
    await sim.sendEvent({
      webhookUrl: receiverUrl,
      call_id: placed.call_id,
      event_type: 'call.transferred',
      combined: true,
    });
    // This call's deliveries only: the previous test's placed call reaches the same receiver on the
    // stand-in's own schedule, and under load it lands after `delivered` was emptied.
    const ours = delivered.filter(
      (d) => (JSON.parse(d.body) as { call_id?: string }).call_id === placed.call_id,
    );
    expect(ours).toHaveLength(3);
    const [call, event, combined] = ours.map((d) => JSON.parse(d.body) as Json);
    expect(ours[0]?.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(contract.validateAt('bland', '/components/schemas/CallDetails', call)).toEqual([]);
    expect(blandCallShapeProblems(call ?? null, 'post-call webhook')).toEqual([]);
    expect(blandEventShapeProblems(event ?? null, 'live event')).toEqual([]);
    // The delayed combined body is the call plus event_type, as Bland's delayed webhook is.
    const { event_type: _type, ...rest } = combined as Record<string, Json>;
    expect(blandCallShapeProblems(rest, 'combined webhook')).toEqual([]);
  });
});
