/**
 * The control API under /_sim/* (JSON, no auth) so tests in other processes and `npm run dev`
 * can shape the simulated provider. Each route is a thin wrapper over one action.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SimActions } from './actions';
import type { SimState } from './state';

const overrides = z.record(z.unknown()).optional();
const url = z.string().min(1).max(2048);

const schemas = {
  key: z.object({ apiKey: z.string().min(1).max(500) }),
  calls: z.object({
    apiKey: z.string().min(1).max(500),
    count: z.number().int().min(0).max(50_000).optional(),
    overrides,
    createdAt: z.union([z.string().max(100), z.number()]).optional(),
    spreadDays: z.number().min(0).max(3650).optional(),
  }),
  updateCall: z.object({ callId: z.string().min(1).max(200), patch: z.record(z.unknown()) }),
  mode: z.object({
    mode: z.enum(['normal', '429', '500', 'slow', 'flaky']),
    slowMs: z.number().int().min(0).max(600_000).optional(),
    times: z.number().int().min(1).optional(),
    retryAfterSeconds: z.number().min(0).max(3600).optional(),
  }),
  expire: z.object({ callId: z.string().min(1).max(200) }),
  failDetails: z.object({
    callIds: z.array(z.string().min(1).max(200)).max(10_000),
    status: z.union([z.literal(429), z.literal(500), z.literal(503)]).optional(),
    times: z.number().int().min(1).max(1_000_000).optional(),
  }),
  readFaults: z.object({
    /** 0 turns faults off. */
    every: z.number().int().min(0).max(1_000_000),
    statuses: z
      .array(z.union([z.literal(429), z.literal(500), z.literal(503)]))
      .min(1)
      .max(10)
      .optional(),
  }),
  listFormat: z.object({ totalCount: z.boolean() }),
  pathway: z.object({
    id: z.string().min(1).max(200),
    name: z.string().min(1).max(200),
    description: z.string().max(2000).optional(),
  }),
  placeTestCall: z.object({
    webhookUrl: url,
    apiKey: z.string().min(1).max(500).optional(),
    signingSecret: z.string().min(1).max(500).optional(),
    overrides,
  }),
  sendEvent: z.object({
    webhookUrl: url,
    call_id: z.string().min(1).max(200),
    message: z.string().max(20_000).optional(),
    category: z.string().max(100).optional(),
    log_level: z.string().max(100).optional(),
    event_type: z.string().max(100).optional(),
    /** With event_type: send the call's full details with it, as Bland's combined webhooks do. */
    combined: z.boolean().optional(),
    signingSecret: z.string().min(1).max(500).optional(),
  }),
};

export function registerControlRoutes(app: FastifyInstance, state: SimState, actions: SimActions): void {
  app.post('/_sim/keys', async (request) => {
    const { apiKey } = schemas.key.parse(request.body);
    const existed = state.accounts.has(apiKey);
    actions.addKey(apiKey);
    return { apiKey, created: !existed };
  });

  app.post('/_sim/calls', async (request) => {
    const { apiKey, ...options } = schemas.calls.parse(request.body);
    const calls = actions.addCalls(apiKey, options);
    return { created: calls.length, callIds: calls.map((c) => c.call_id) };
  });

  app.post('/_sim/update-call', async (request) => {
    const { callId, patch } = schemas.updateCall.parse(request.body);
    return actions.updateCall(callId, patch);
  });

  app.post('/_sim/mode', async (request) => {
    const { mode, ...options } = schemas.mode.parse(request.body);
    actions.setMode(mode, options);
    return {
      mode: state.mode,
      slowMs: state.slowMs,
      times: state.modeRemaining,
      retryAfterSeconds: state.retryAfterSeconds,
    };
  });

  /** The detail requests of these calls fail (429 or 500), `times` times each (default: always). */
  app.post('/_sim/fail-details', async (request) => {
    const { callIds, status = 429, times = 1_000_000 } = schemas.failDetails.parse(request.body);
    for (const id of callIds) state.failingDetails.set(id, { status, times });
    return { failing: state.failingDetails.size };
  });

  /** Every `every`-th read answers the next of `statuses` (default 429, 500, 503); every 0 stops it. */
  app.post('/_sim/read-faults', async (request) => {
    const { every, statuses = [429, 500, 503] } = schemas.readFaults.parse(request.body);
    state.readFaults = every === 0 ? null : { every, statuses, reads: 0, answered: 0 };
    return { readFaults: state.readFaults };
  });

  /** Whether list answers carry total_count (off by default, like Bland's documented example). */
  app.post('/_sim/list-format', async (request) => {
    state.listTotalCount = schemas.listFormat.parse(request.body).totalCount;
    return { totalCount: state.listTotalCount };
  });

  app.post('/_sim/expire-recording', async (request) => {
    const { callId } = schemas.expire.parse(request.body);
    actions.expireRecording(callId);
    return { callId, expired: true };
  });

  app.post('/_sim/pathways', async (request) => {
    const { id, name, description } = schemas.pathway.parse(request.body);
    actions.addPathway(id, name, description);
    return { id, name };
  });

  app.post('/_sim/place-test-call', async (request) =>
    actions.placeTestCall(schemas.placeTestCall.parse(request.body)),
  );

  app.post('/_sim/send-event', async (request) => actions.sendEvent(schemas.sendEvent.parse(request.body)));

  app.post('/_sim/reset', async () => {
    actions.reset();
    return { success: true };
  });

  app.get('/_sim/state', async () => ({
    mode: state.mode,
    slowMs: state.slowMs,
    modeRemaining: state.modeRemaining,
    accounts: [...state.accounts.values()]
      .filter((a) => a.apiKey)
      .map((a) => ({ apiKey: a.apiKey, calls: a.calls.length })),
    pathways: Object.fromEntries(state.pathways),
    expiredRecordings: [...state.expiredRecordings],
    requests: state.stats.requests,
    byRoute: state.stats.byRoute,
  }));
}
