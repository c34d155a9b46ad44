/** Bland post-call webhook bodies as the provider sends them (DESIGN §7), and their delivery. */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { VoiceSim } from '../../sim/voice-provider';
import type { AppDeps } from '../../src/server/context';
import { createClient, loginClient } from './factories';

/** POSTs a webhook body (an object as JSON, a string as its bytes) to a client's webhook URL. */
export function deliverWebhook(
  app: FastifyInstance,
  token: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url: `/api/webhooks/voice/${token}`,
    payload: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export function blandCallBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const created = new Date(Date.now() - 5 * 60_000).toISOString();
  return {
    call_id: randomUUID(),
    to: '+14155550123',
    from: '+12125550199',
    call_length: 1.5,
    corrected_duration: '90',
    created_at: created,
    started_at: created,
    completed: true,
    queue_status: 'complete',
    status: 'completed',
    answered_by: 'human',
    call_ended_by: 'USER',
    recording_url: 'https://recordings.example/abc.mp3',
    price: 0.135,
    summary: 'Booked a cleaning for Tuesday.',
    pathway_id: null,
    transferred_to: null,
    is_proxy_agent_call: false,
    concatenated_transcript: 'assistant: Hello! user: Hi, I need an appointment.',
    transcripts: [
      { id: 1, created_at: created, text: 'Hello! How can I help?', user: 'assistant' },
      { id: 2, created_at: created, text: 'Hi, I need an appointment.', user: 'user' },
    ],
    ...overrides,
  };
}

/**
 * A signed-in client whose API key is an account at the Bland stand-in holding `calls` finished
 * calls over the last ten days: what a sync test starts from.
 */
export async function createClientWithSimCalls(
  t: { app: FastifyInstance; deps: AppDeps },
  sim: VoiceSim,
  calls = 0,
) {
  const apiKey = `sim-key-${randomUUID()}`;
  sim.addKey(apiKey);
  if (calls > 0)
    sim.addCalls(apiKey, {
      count: calls,
      spreadDays: 10,
      overrides: { status: 'completed', completed: true, queue_status: 'complete', transferred_to: null },
    });
  const client = await createClient(t.deps, {
    bland_api_key_enc: t.deps.secrets.encrypt(apiKey),
    api_key_status: 'valid',
  });
  return { apiKey, client, cookie: await loginClient(t.app, client.email) };
}
