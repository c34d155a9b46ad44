/**
 * Bland's REST surface as the adapter uses it (DESIGN §7): list calls, call details, the corrected
 * transcript, recordings, pathways. Raw-key `authorization` header, Bland's error envelope, and
 * the failure modes (429, 500, slow, flaky) that exercise the adapter's retries and timeouts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SimActions } from './actions';
import { parseRange, sampleMp3, sampleWav } from './audio';
import { correctedSegments, hasCorrectedTranscript } from './generate';
import type { BlandCallRecord, FaultStatus, SimAccount, SimCall, SimState } from './state';

export function blandError(reply: FastifyReply, status: number, error: string, message: string) {
  return reply
    .code(status)
    .type('application/json')
    .send({ data: null, errors: [{ error, message }] });
}

function listItem(details: BlandCallRecord): Record<string, unknown> {
  const { transcripts: _t, concatenated_transcript: _c, ...rest } = details;
  return rest;
}

function queryString(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : Array.isArray(value) ? String(value[0]) : undefined;
}

export interface BlandRoutesContext {
  state: SimState;
  /** POST /v1/calls: queues an outbound call in the key's account. */
  dispatchCall: SimActions['dispatchCall'];
  /** Resolves when `ms` pass or the simulator closes, whichever comes first. */
  wait: (ms: number, request: FastifyRequest, reply: FastifyReply) => Promise<void>;
}

export function registerBlandRoutes(
  app: FastifyInstance,
  { state, wait, dispatchCall }: BlandRoutesContext,
): void {
  function track(request: FastifyRequest, reply: FastifyReply): void {
    // Read through state each time: reset() swaps the stats object.
    const stats = state.stats;
    const key = request.headers.authorization ?? '';
    stats.requests++;
    const route = request.routeOptions.url ?? request.url;
    stats.byRoute[route] = (stats.byRoute[route] ?? 0) + 1;
    const now = (stats.inFlight.get(key) ?? 0) + 1;
    stats.inFlight.set(key, now);
    if (now > (stats.maxInFlight.get(key) ?? 0)) stats.maxInFlight.set(key, now);
    reply.raw.once('close', () => stats.inFlight.set(key, (stats.inFlight.get(key) ?? 1) - 1));
  }

  /** The failure mode for this answer, counting down `times` when one was given. */
  function takeMode(): '429' | '500' | 'slow' | null {
    if (state.mode === 'normal') return null;
    let effect: '429' | '500' | 'slow' | null;
    if (state.mode === 'flaky') {
      state.flakyCounter++;
      effect = state.flakyCounter % 2 === 1 ? (state.flakyCounter % 4 === 1 ? '500' : '429') : null;
    } else {
      effect = state.mode;
    }
    if (effect && state.modeRemaining !== null && --state.modeRemaining <= 0) {
      state.mode = 'normal';
      state.modeRemaining = null;
    }
    return effect;
  }

  /** The injected fault for this read, if it is one of every `every` (state.readFaults). */
  function takeReadFault(request: FastifyRequest): FaultStatus | null {
    const faults = state.readFaults;
    if (!faults || request.method !== 'GET') return null;
    if (request.routeOptions.url === '/v1/calls/:id/correct') return null;
    if (++faults.reads % faults.every !== 0) return null;
    return faults.statuses[faults.answered++ % faults.statuses.length];
  }

  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/v1/')) return;
    track(request, reply);
    const fault = takeReadFault(request);
    if (fault !== null) {
      if (fault === 429) reply.header('retry-after', '0');
      return fault === 429
        ? blandError(reply, 429, 'RATE_LIMITED', 'Too many requests, slow down')
        : blandError(
            reply,
            fault,
            fault === 503 ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_SERVER_ERROR',
            'Try again',
          );
    }
    const effect = takeMode();
    if (effect === 'slow') await wait(state.slowMs, request, reply);
    else if (effect === '429') {
      reply.header('retry-after', String(state.retryAfterSeconds));
      return blandError(reply, 429, 'RATE_LIMITED', 'Too many requests, slow down');
    } else if (effect === '500')
      return blandError(reply, 500, 'INTERNAL_SERVER_ERROR', 'Internal server error');
    const key = request.headers.authorization;
    if (!key || !state.accounts.has(key)) return blandError(reply, 401, 'AUTH_FAILURE', 'Invalid API key');
  });

  const accountOf = (request: FastifyRequest): SimAccount =>
    state.accounts.get(request.headers.authorization ?? '')!;

  function ownedCall(request: FastifyRequest, id: string): SimCall | null {
    const call = state.callsById.get(id);
    return call && call.account === accountOf(request).apiKey ? call : null;
  }

  // Send Call: phone_number (E.164) and a task or pathway_id; webhook receives the call when it ends.
  app.post('/v1/calls', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const phone = body.phone_number;
    if (typeof phone !== 'string' || !/^\+[1-9]\d{7,14}$/.test(phone))
      return blandError(
        reply,
        400,
        'INVALID_PHONE_NUMBER',
        'phone_number must be a valid E.164 phone number',
      );
    const task = typeof body.task === 'string' ? body.task : null;
    if (!task && typeof body.pathway_id !== 'string')
      return blandError(reply, 400, 'MISSING_TASK', 'Either task or pathway_id is required');
    const webhook = typeof body.webhook === 'string' ? body.webhook : null;
    return dispatchCall(accountOf(request).apiKey, {
      phoneNumber: phone,
      task: task ?? 'Pathway call',
      webhook,
    });
  });

  app.get('/v1/calls', async (request, reply) => {
    const account = accountOf(request);
    const from = Number(queryString(request, 'from') ?? 0);
    const to = queryString(request, 'to');
    const limitRaw = Number(queryString(request, 'limit') ?? 1000);
    const ascending = queryString(request, 'ascending') === 'true';
    const sortBy = queryString(request, 'sort_by') ?? 'created_at';
    const startRaw = queryString(request, 'start_date');
    const endRaw = queryString(request, 'end_date');
    const fromNumber = queryString(request, 'from_number');
    const toNumber = queryString(request, 'to_number');
    const start = startRaw ? Date.parse(startRaw) : null;
    const end = endRaw ? Date.parse(endRaw) : null;
    if (!Number.isInteger(from) || from < 0 || !Number.isInteger(limitRaw) || limitRaw < 1) {
      return blandError(reply, 400, 'INVALID_PARAMETERS', 'from and limit must be non-negative integers');
    }
    if (sortBy !== 'created_at' && sortBy !== 'updated_at') {
      return blandError(reply, 400, 'INVALID_PARAMETERS', 'sort_by must be created_at or updated_at');
    }
    if (Number.isNaN(start) || Number.isNaN(end)) {
      return blandError(reply, 400, 'INVALID_PARAMETERS', 'start_date and end_date must be ISO dates');
    }
    const limit = Math.min(limitRaw, 1000);
    const sortKey = (c: SimCall) => (sortBy === 'updated_at' ? c.updatedAtMs : c.createdAtMs);
    const matching = account.calls
      .filter(
        (c) =>
          (start === null || c.createdAtMs >= start) &&
          (end === null || c.createdAtMs <= end) &&
          (!fromNumber || c.details.from === fromNumber) &&
          (!toNumber || c.details.to === toNumber),
      )
      .sort((a, b) => {
        const d = sortKey(a) - sortKey(b) || a.details.call_id.localeCompare(b.details.call_id);
        return ascending ? d : -d;
      });
    const stop = Math.min(
      from + limit,
      to !== undefined && Number.isInteger(Number(to)) ? Number(to) : Infinity,
    );
    const page = matching.slice(from, Math.max(from, stop)).map((c) => listItem(c.details));
    return state.listTotalCount
      ? { total_count: matching.length, count: page.length, calls: page }
      : { count: page.length, calls: page };
  });

  app.get<{ Params: { id: string } }>('/v1/calls/:id', async (request, reply) => {
    const call = ownedCall(request, request.params.id);
    if (!call) return blandError(reply, 404, 'CALL_NOT_FOUND', 'Call not found');
    const failing = state.failingDetails.get(call.details.call_id);
    if (failing && failing.times > 0) {
      if (--failing.times === 0) state.failingDetails.delete(call.details.call_id);
      if (failing.status === 429) reply.header('retry-after', '0');
      if (failing.status === 503) return blandError(reply, 503, 'SERVICE_UNAVAILABLE', 'Try again');
      return failing.status === 429
        ? blandError(reply, 429, 'RATE_LIMITED', 'Too many requests')
        : blandError(reply, 500, 'INTERNAL_ERROR', 'Internal server error');
    }
    return call.details;
  });

  /**
   * Bland's corrected transcript ({status, message, corrected}; the deprecated `aligned` is not
   * sent): segments of the call's own transcript, timed from its start. A call without one (not
   * ended, nothing said, no recording, or one of those generate.ts leaves without) answers 404.
   */
  app.get<{ Params: { id: string } }>('/v1/calls/:id/correct', async (request, reply) => {
    const call = ownedCall(request, request.params.id);
    if (!call) return blandError(reply, 404, 'CALL_NOT_FOUND', 'Call not found');
    const answer =
      state.correctedAnswers.get(call.details.call_id) ??
      (hasCorrectedTranscript(call.details) ? 'available' : 'missing');
    if (answer === 'missing')
      return blandError(reply, 404, 'TRANSCRIPT_NOT_FOUND', 'No corrected transcript for this call');
    if (answer !== 'available') {
      if (answer === 429) reply.header('retry-after', '0');
      return blandError(reply, answer, answer === 429 ? 'RATE_LIMITED' : 'INTERNAL_ERROR', 'Try again');
    }
    return {
      status: 'success',
      message: 'Corrected transcript retrieved',
      corrected: correctedSegments(call.details),
    };
  });

  app.get<{ Params: { id: string } }>('/v1/recordings/:id', async (request, reply) => {
    const call = ownedCall(request, request.params.id);
    if (!call?.details.recording_url || state.expiredRecordings.has(call.details.call_id)) {
      return blandError(reply, 404, 'CALL_RECORDING_NOT_FOUND', 'Call recording not found');
    }
    // Bland sends WAV unless the request's content-type asks for audio/mpeg.
    const asMp3 = String(request.headers['content-type'] ?? '').startsWith('audio/mpeg');
    const audio = asMp3 ? sampleMp3() : sampleWav();
    reply.header('content-type', asMp3 ? 'audio/mpeg' : 'audio/wav');
    reply.header('accept-ranges', 'bytes');
    const range = parseRange(request.headers.range, audio.length);
    if (range === 'unsatisfiable') {
      reply.header('content-range', `bytes */${audio.length}`);
      return blandError(reply, 416, 'RANGE_NOT_SATISFIABLE', 'Range not satisfiable');
    }
    if (range) {
      reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${audio.length}`);
      return reply.send(audio.subarray(range.start, range.end + 1));
    }
    return reply.send(audio);
  });

  app.get<{ Params: { id: string } }>('/v1/pathway/:id', async (request, reply) => {
    const pathway = state.pathways.get(request.params.id);
    if (!pathway) return blandError(reply, 404, 'PATHWAY_NOT_FOUND', 'Pathway not found');
    return { name: pathway.name, description: pathway.description, nodes: [], edges: [] };
  });
}
