/**
 * One client's slow webhook endpoint must not delay another client's notifications.
 * Client A's endpoint accepts connections and never answers, with 100 of its messages due and
 * older than anything else; client B's endpoint answers at once. B's event must arrive while A's
 * first requests are still hanging (before any of A's timeouts could expire), A's endpoint sees
 * at most a bounded number of requests at once, and after A's first failure its other messages
 * are rescheduled (backed off) instead of each waiting for its own timeout.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveNotificationPrefs } from '../../src/server/account/notification-prefs';
import { startJob } from '../../src/server/http/jobs';
import { createNotifications } from '../../src/server/notifications';
import { claimDue, enqueue, markSent } from '../../src/server/notifications/outbox';
import { storeCalls } from '../helpers/calls';
import { createClient, loginClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

let clock = Date.UTC(2026, 5, 10, 19, 0);
const PREFS = {
  emailNotifications: false,
  smsNotifications: false,
  webhookNotifications: true,
  monthlyReports: false,
};
/** How long the test waits for B at most: far above the target (5 s), so a slow machine passes. */
const WAIT_FOR_B_MS = 20_000;

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
};

describe(`outbox fairness (${TEST_DB})`, () => {
  let t: TestApp;
  /** A: takes every request and never answers (until `answerA`). */
  let hanging: Server;
  let hangingUrl: string;
  let answerA = false;
  let aOpen = 0;
  let aMaxOpen = 0;
  let aRequests = 0;
  /** Requests of A that ended without an answer: the worker gave up on them (a timeout). */
  let aAbandoned = 0;
  /** B: answers at once. */
  let receiver: Server;
  let receiverUrl: string;
  const bArrivals: { at: number; aAbandonedThen: number; aRequestsThen: number; body: string }[] = [];
  let onB: () => void = () => {};

  beforeAll(async () => {
    hanging = createServer((req, res) => {
      aRequests++;
      if (answerA) {
        req.resume();
        req.on('end', () => res.writeHead(200).end());
        return;
      }
      aOpen++;
      aMaxOpen = Math.max(aMaxOpen, aOpen);
      req.resume();
      res.on('close', () => {
        aOpen--;
        if (!res.writableEnded) aAbandoned++;
      });
    });
    hangingUrl = await listen(hanging);
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bArrivals.push({
          at: performance.now(),
          aAbandonedThen: aAbandoned,
          aRequestsThen: aRequests,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.writeHead(200).end();
        onB();
      });
    });
    receiverUrl = await listen(receiver);
    t = await createTestApp({ now: () => clock, env: { CLIENT_WEBHOOKS_ALLOW_PRIVATE: '1' } });
  });
  afterAll(async () => {
    await t?.close();
    hanging?.closeAllConnections();
    await new Promise<void>((resolve) => hanging.close(() => resolve()));
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  async function hookedClient(url: string) {
    const client = await createClient(t.deps);
    await saveNotificationPrefs(t.deps.db, client.id, PREFS, clock);
    const cookie = await loginClient(t.app, client.email);
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/client/integrations/webhook',
      headers: { cookie },
      payload: { url },
    });
    expect(saved.statusCode).toBe(200);
    return client;
  }
  const outboxOf = (clientId: string) =>
    t.deps.db.selectFrom('outbox').selectAll().where('client_id', '=', clientId).execute();

  it('another client’s event arrives while a hanging endpoint holds 100 due messages', async () => {
    const a = await hookedClient(hangingUrl);
    const b = await hookedClient(receiverUrl);
    // A's 100 messages ("Send again" pressed 100 times) are due and older than B's event.
    await enqueue(
      t.deps.db,
      Array.from({ length: 100 }, (_, i) => ({
        clientId: a.id,
        channel: 'webhook' as const,
        topic: 'test',
        dedupeKey: `fairness:a:${i}`,
        payload: {},
      })),
      clock - 60_000,
    );
    await storeCalls(t.deps, b, [
      { providerCallId: 'b-call', status: 'completed', durationSeconds: 42, createdAt: clock - 1000 },
    ]);

    const notifications = createNotifications(t.deps, () => {});
    const started = performance.now();
    const bArrived = new Promise<void>((resolve) => {
      onB = resolve;
    });
    const round = notifications.worker.runOnce();
    try {
      await Promise.race([bArrived, new Promise((resolve) => setTimeout(resolve, WAIT_FOR_B_MS))]);
      expect(bArrivals, `B's event within ${WAIT_FOR_B_MS / 1000} s`).toHaveLength(1);
      const [hit] = bArrivals;
      expect(JSON.parse(hit.body)).toMatchObject({ type: 'call.completed', call: { duration: 42 } });
      // A was being tried at the same time (not skipped), and none of A's requests had been given
      // up on yet: B did not wait for a single one of A's timeouts.
      expect(hit.aRequestsThen).toBeGreaterThan(0);
      expect(hit.aAbandonedThen).toBe(0);
      console.log(`B delivered after ${(hit.at - started).toFixed(0)} ms with A hanging`);
    } finally {
      if (bArrivals.length === 0) {
        // Failing: let the stuck round finish instead of waiting out 100 timeouts.
        answerA = true;
        hanging.closeAllConnections();
      }
      await round.catch(() => undefined);
    }

    // A's endpoint never saw more than a few requests at once, and after its first timeouts the
    // rest of its messages were rescheduled, not each sent to wait out its own timeout.
    expect(aMaxOpen).toBeGreaterThan(0);
    expect(aMaxOpen).toBeLessThanOrEqual(4);
    expect(aRequests).toBeLessThanOrEqual(4);
    const rows = await outboxOf(a.id);
    expect(rows).toHaveLength(100);
    expect(rows.every((r) => r.status === 'pending')).toBe(true);
    const tried = rows.filter((r) => r.attempts > 0);
    expect(tried.length).toBe(aRequests);
    for (const r of tried) expect(r.last_error).toMatch(/^no answer within \d+ s$/);
    expect(rows.every((r) => Number(r.next_attempt_at) > clock)).toBe(true);
    expect(rows.every((r) => r.claimed_until === null)).toBe(true);

    // A's endpoint comes back: once the backoff has passed, every message goes, each once.
    answerA = true;
    aRequests = 0;
    clock += 31 * 60_000;
    await notifications.worker.runOnce();
    notifications.close();
    expect(aRequests).toBe(100);
    expect((await outboxOf(a.id)).every((r) => r.status === 'sent')).toBe(true);
    expect((await outboxOf(b.id)).filter((r) => r.channel === 'webhook').map((r) => r.status)).toEqual([
      'sent',
    ]);
  }, 90_000);

  it('claims every destination’s oldest before anyone’s second, and no more than 2 per destination over instances', async () => {
    const clients = [await createClient(t.deps), await createClient(t.deps), await createClient(t.deps)];
    const [x, y, z] = clients.map((c) => c.id);
    const at = clock;
    const message = (clientId: string, key: string, age: number) =>
      enqueue(
        t.deps.db,
        // Texts: no other test of this file queues any, so nothing else is due on this channel.
        [{ clientId, channel: 'sms', topic: 'call.attention', dedupeKey: `claims:${key}`, payload: {} }],
        at - age,
      );
    for (let i = 0; i < 5; i++) await message(x, `x${i}`, 60_000 - i);
    await message(y, 'y', 1000);
    await message(z, 'z', 500);
    const mine = (rows: { client_id: string | null }[]) =>
      rows.map((r) => r.client_id).filter((id) => clients.some((c) => c.id === id));
    // Instance 1: one of each first (x's are older, yet only one of them comes before y and z).
    const first = await claimDue(t.deps.db, t.deps.dialect, 'instance-1', at, ['sms'], 3);
    expect(mine(first).sort()).toEqual([x, y, z].sort());
    // Instance 2: x's second slot; instance 3: nothing of x, two are being sent already.
    const second = await claimDue(t.deps.db, t.deps.dialect, 'instance-2', at, ['sms'], 10);
    expect(mine(second)).toEqual([x]);
    expect(mine(await claimDue(t.deps.db, t.deps.dialect, 'instance-3', at, ['sms'], 10))).toEqual([]);
    // One of x's ends: its slot is free again.
    await markSent(t.deps.db, second.find((r) => r.client_id === x)!, at);
    expect(mine(await claimDue(t.deps.db, t.deps.dialect, 'instance-3', at, ['sms'], 10))).toEqual([x]);
  });

  it('a running worker sends a message queued in this process without waiting for its next look', async () => {
    const b = await hookedClient(receiverUrl);
    const notifications = createNotifications(t.deps, () => {});
    // Its next look is ten minutes away: only the wake-up on enqueue can send the event now.
    const stopWorker = startJob(notifications.worker.job(10 * 60_000), () => {});
    const before = bArrivals.length;
    const arrived = new Promise<void>((resolve) => {
      onB = resolve;
    });
    try {
      await storeCalls(t.deps, b, [
        { providerCallId: 'b-woken', status: 'completed', durationSeconds: 7, createdAt: clock - 1000 },
      ]);
      await Promise.race([arrived, new Promise((resolve) => setTimeout(resolve, WAIT_FOR_B_MS))]);
    } finally {
      stopWorker();
      notifications.close();
    }
    expect(bArrivals.slice(before).map((h) => JSON.parse(h.body).call.providerCallId)).toEqual(['b-woken']);
  }, 60_000);
});
