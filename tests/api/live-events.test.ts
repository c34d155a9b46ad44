/**
 * The live streams over real HTTP: a client's stream gets its own calls' events and
 * never another client's, resumes with Last-Event-ID, ends when the session does, and an event
 * written through one instance reaches a stream held by another.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { setAdminsRequireTwoFactor } from '../../src/server/auth/two-factor-store';
import { createDeps } from '../../src/server/bootstrap';
import { updateClient } from '../../src/server/clients/clients-repository';
import { loadConfig } from '../../src/server/config';
import type { AppDeps } from '../../src/server/context';
import {
  checkAnswersAgainstDescription,
  type DescriptionCheck,
  expectNoUndescribedAnswers,
} from '../helpers/api-description-check';
import { blandCallBody } from '../helpers/bland';
import { createAdminUser, createClient, loginAdmin, loginClient } from '../helpers/factories';
import { createTestDb, TEST_DB, type TestDb } from '../helpers/test-app';

interface SseEvent {
  id?: string;
  event?: string;
  data?: string;
}

/** An open event stream: its events as they come, and a way to wait for one. */
async function openStream(url: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const res = await fetch(url, { headers, signal: controller.signal });
  const events: SseEvent[] = [];
  const waiters: (() => void)[] = [];
  let ended = false;
  if (res.ok && res.body) {
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    (async () => {
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let cut = buffer.indexOf('\n\n');
          while (cut >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const event: SseEvent = {};
            for (const line of block.split('\n')) {
              const [field, ...rest] = line.split(': ');
              if (field === 'id' || field === 'event' || field === 'data') event[field] = rest.join(': ');
            }
            if (event.event) events.push(event);
            for (const w of waiters.splice(0)) w();
            cut = buffer.indexOf('\n\n');
          }
        }
      } catch {
        // aborted
      }
      ended = true;
      for (const w of waiters.splice(0)) w();
    })();
  }
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    events,
    get ended() {
      return ended;
    },
    async waitFor(test: (events: SseEvent[]) => boolean, ms = 5000): Promise<void> {
      const deadline = Date.now() + ms;
      while (!test(events)) {
        if (ended || Date.now() > deadline) throw new Error(`stream: not seen (${JSON.stringify(events)})`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    close: () => controller.abort(),
  };
}

describe(`live streams (${TEST_DB})`, () => {
  let testDb: TestDb;
  let dataDir: string;
  const apps: FastifyInstance[] = [];
  const described: DescriptionCheck[] = [];
  const urls: string[] = [];
  const closers: (() => Promise<void>)[] = [];
  let deps: AppDeps;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'cap-live-'));
    testDb = await createTestDb(dataDir);
    const config = loadConfig({
      DATA_DIR: dataDir,
      APP_SECRET: 'live-secret-0123456789',
      BLAND_API_URL: 'http://127.0.0.1:9',
      LOG_LEVEL: 'silent',
      LIVE_HEARTBEAT_MS: '300',
    });
    // Two instances on one database, as behind a load balancer.
    for (const db of [testDb.db, testDb.reopen()]) {
      const built = await createDeps(config, { db });
      const app = await buildApp(built.deps);
      described.push(checkAnswersAgainstDescription(app));
      urls.push(await app.listen({ port: 0, host: '127.0.0.1' }));
      apps.push(app);
      closers.push(built.close);
      deps ??= built.deps;
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const check of described) expectNoUndescribedAnswers(check);
    for (const close of closers) await close();
    await testDb.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const deliver = (url: string, token: string, body: Record<string, unknown>) =>
    fetch(`${url}/api/webhooks/voice/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const callEvents = (events: SseEvent[]) =>
    events.filter((e) => e.event === 'call').map((e) => JSON.parse(e.data ?? '{}'));

  it("sends a client its own calls as they arrive, through any instance, and never another client's", async () => {
    const a = await createClient(deps);
    const b = await createClient(deps);
    const cookieA = await loginClient(apps[0], a.email);
    const cookieB = await loginClient(apps[0], b.email);

    // A's stream on the second instance, B's on the first.
    const streamA = await openStream(`${urls[1]}/api/client/events`, { cookie: cookieA });
    const streamB = await openStream(`${urls[0]}/api/client/events`, { cookie: cookieB });
    expect(streamA.status).toBe(200);
    expect(streamA.contentType).toMatch(/^text\/event-stream/);
    await streamA.waitFor((e) => e.some((x) => x.event === 'ready'));
    await streamB.waitFor((e) => e.some((x) => x.event === 'ready'));

    const body = blandCallBody({ status: 'completed' });
    const started = Date.now();
    expect((await deliver(urls[0], a.webhook_token, body)).status).toBe(200);
    await streamA.waitFor((e) => callEvents(e).length === 1);
    expect(Date.now() - started).toBeLessThan(3000);
    const [event] = callEvents(streamA.events);
    expect(event).toMatchObject({ change: 'created', status: 'completed', toNumber: body.to });
    const stored = await deps.db
      .selectFrom('calls')
      .select('id')
      .where('client_id', '=', a.id)
      .executeTakeFirstOrThrow();
    expect(event.callId).toBe(stored.id);

    // The same call again, now transferred: an update.
    await deliver(urls[1], a.webhook_token, {
      ...body,
      status: 'transferred',
      transferred_to: '+14155550100',
    });
    await streamA.waitFor((e) => callEvents(e).length === 2);
    expect(callEvents(streamA.events)[1]).toMatchObject({ change: 'updated', status: 'transferred' });

    // A live event of a call still in progress: its activity, named by the provider's id.
    await deliver(urls[1], a.webhook_token, {
      message: 'Call connected',
      call_id: 'live-call-1',
      category: 'call',
    });
    await streamA.waitFor((e) => e.some((x) => x.event === 'activity'));
    expect(JSON.parse(streamA.events.find((x) => x.event === 'activity')?.data ?? '{}')).toMatchObject({
      providerCallId: 'live-call-1',
    });
    expect(callEvents(streamA.events)[0]).toMatchObject({ providerCallId: body.call_id });

    // B's stream saw none of it.
    await new Promise((r) => setTimeout(r, 500));
    expect(streamB.events.filter((e) => e.event !== 'ready')).toEqual([]);
    streamA.close();
    streamB.close();
  });

  it('resumes from Last-Event-ID with the events missed meanwhile', async () => {
    const client = await createClient(deps);
    const cookie = await loginClient(apps[0], client.email);
    const first = await openStream(`${urls[0]}/api/client/events`, { cookie });
    await first.waitFor((e) => e.some((x) => x.event === 'ready'));
    await deliver(urls[0], client.webhook_token, blandCallBody());
    await first.waitFor((e) => callEvents(e).length === 1);
    const lastId = first.events.at(-1)?.id ?? '';
    first.close();

    // Two calls while disconnected.
    await deliver(urls[1], client.webhook_token, blandCallBody());
    await deliver(urls[1], client.webhook_token, blandCallBody());
    const again = await openStream(`${urls[1]}/api/client/events`, { cookie, 'last-event-id': lastId });
    await again.waitFor((e) => callEvents(e).length === 2);
    const ids = again.events.filter((e) => e.event === 'call').map((e) => Number(e.id));
    expect(ids.every((id) => id > Number(lastId))).toBe(true);
    expect(ids[1]).toBeGreaterThan(ids[0]);
    again.close();
  });

  it('answers 401 without a session, and ends the stream when the session ends', async () => {
    expect((await openStream(`${urls[0]}/api/client/events`, {})).status).toBe(401);
    const client = await createClient(deps);
    const cookie = await loginClient(apps[0], client.email);
    const stream = await openStream(`${urls[0]}/api/client/events`, { cookie });
    await stream.waitFor((e) => e.some((x) => x.event === 'ready'));
    await fetch(`${urls[0]}/api/client/logout`, { method: 'POST', headers: { cookie } });
    await stream.waitFor((e) => e.some((x) => x.event === 'end'), 3000);
    await stream.waitFor(() => stream.ended, 3000).catch(() => {});
    expect(stream.ended).toBe(true);
  });

  it('ends an open stream once two-factor sign-in is required of someone who has not set it up', async () => {
    const client = await createClient(deps);
    const cookie = await loginClient(apps[0], client.email);
    const stream = await openStream(`${urls[0]}/api/client/events`, { cookie });
    await stream.waitFor((e) => e.some((x) => x.event === 'ready'));
    await updateClient(deps.db, client.id, { require_two_factor: 1 });
    await stream.waitFor((e) => e.some((x) => x.event === 'end'), 3000);
    expect(JSON.parse(stream.events.find((x) => x.event === 'end')?.data ?? '{}')).toEqual({
      reason: 'signed out',
    });
    stream.close();

    const admin = await createAdminUser(deps);
    const adminCookie = await loginAdmin(apps[0], admin.username, admin.password);
    const watching = await openStream(`${urls[1]}/api/admin/clients/${client.id}/events`, {
      cookie: adminCookie,
    });
    await watching.waitFor((e) => e.some((x) => x.event === 'ready'));
    await setAdminsRequireTwoFactor(deps.db, true);
    try {
      await watching.waitFor((e) => e.some((x) => x.event === 'end'), 3000);
    } finally {
      await setAdminsRequireTwoFactor(deps.db, false);
      watching.close();
    }
  });

  it("lets an admin watch a client's stream, and no one else", async () => {
    const client = await createClient(deps);
    const admin = await createAdminUser(deps);
    const adminCookie = await loginAdmin(apps[0], admin.username, admin.password);
    const other = await createClient(deps);
    const clientCookie = await loginClient(apps[0], other.email);
    expect(
      (await openStream(`${urls[0]}/api/admin/clients/${client.id}/events`, { cookie: clientCookie })).status,
    ).toBe(403);
    expect(
      (await openStream(`${urls[0]}/api/admin/clients/nope/events`, { cookie: adminCookie })).status,
    ).toBe(404);
    const stream = await openStream(`${urls[1]}/api/admin/clients/${client.id}/events`, {
      cookie: adminCookie,
    });
    await stream.waitFor((e) => e.some((x) => x.event === 'ready'));
    await deliver(urls[0], client.webhook_token, blandCallBody());
    await deliver(urls[0], other.webhook_token, blandCallBody());
    await stream.waitFor((e) => callEvents(e).length === 1);
    await new Promise((r) => setTimeout(r, 400));
    expect(callEvents(stream.events)).toHaveLength(1);
    stream.close();
  });
});
