import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

/** A client's sync POST, as the browser sends it. */
export const postSync = (app: FastifyInstance, cookie: string) =>
  app.inject({ method: 'POST', url: '/api/client/calls/sync', headers: { cookie } });

/** The sync run's own answer, polled until it is no longer running. */
export async function followSyncRun(app: FastifyInstance, cookie: string, runId: string) {
  for (let i = 0; i < 400; i++) {
    const res = await app.inject({
      method: 'GET',
      url: `/api/client/calls/sync/runs/${runId}`,
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    if (res.json().status !== 'running') return res.json();
    await sleep(50);
  }
  throw new Error('the sync never ended');
}

/**
 * A sync's result: the POST's body (200), or its run followed to the end when it ran past the
 * POST's wait (202, also the contract's answer: a loaded 2-core machine gets it for small syncs).
 */
export async function syncResult(app: FastifyInstance, cookie: string) {
  const res = await postSync(app, cookie);
  if (res.statusCode === 202) {
    const run = await followSyncRun(app, cookie, res.json().runId);
    expect(run.status).toBe('succeeded');
    return run.result;
  }
  expect(res.statusCode).toBe(200);
  return res.json();
}
