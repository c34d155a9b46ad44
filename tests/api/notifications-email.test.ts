/**
 * E-mail notifications through the outbox, against a real SMTP listener (sim/smtp):
 * what a stored call queues, once; the switch; rendering at send time; retries and refusals; a
 * worker killed mid-send (its lease runs out, another takes over); two workers never sending one
 * message twice.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SmtpSim, startSmtpSim } from '../../sim/smtp';
import { saveNotificationPrefs } from '../../src/server/account/notification-prefs';
import { createDeps } from '../../src/server/bootstrap';
import { createNotifications } from '../../src/server/notifications';
import { CLAIM_LEASE_MS, claimDue } from '../../src/server/notifications/outbox';
import { NO_INSIGHTS } from '../../src/server/providers/voice/types';
import { storeCalls } from '../helpers/calls';
import { createClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

let clock = Date.UTC(2026, 5, 10, 15, 0);

describe(`e-mail notifications (${TEST_DB})`, () => {
  let t: TestApp;
  let smtp: SmtpSim;
  beforeAll(async () => {
    smtp = await startSmtpSim();
    t = await createTestApp({
      now: () => clock,
      env: { SMTP_URL: smtp.smtpUrl, MAIL_FROM: 'Agency <alerts@agency.test>' },
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  beforeEach(() => smtp.clear());

  const outboxOf = (clientId: string) =>
    t.deps.db
      .selectFrom('outbox')
      .selectAll()
      .where('client_id', '=', clientId)
      .orderBy('created_at')
      .execute();
  const failed = (over = {}) => ({
    status: 'failed' as const,
    durationSeconds: 0,
    createdAt: clock - 60_000,
    insights: { ...NO_INSIGHTS, errorMessage: 'Carrier rejected the call' },
    ...over,
  });

  it('a call that needs attention is e-mailed once, with its reasons, numbers and a link to it', async () => {
    const client = await createClient(t.deps, { company_name: 'Bright Smile' });
    const [call] = [failed({ providerCallId: 'needs-a-person' })];
    await storeCalls(t.deps, client, [call]);
    // The same call again (a re-delivered webhook, a sync): still one message.
    await storeCalls(t.deps, client, [call]);
    // A completed call nobody needs to look at: nothing.
    await storeCalls(t.deps, client, [{ createdAt: clock - 30_000, durationSeconds: 120 }]);
    const queued = (await outboxOf(client.id)).filter((m) => m.channel === 'email');
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ topic: 'call.attention', status: 'pending' });

    const notifications = createNotifications(t.deps, (e) => {
      throw e;
    });
    expect(await notifications.worker.runOnce()).toBeGreaterThanOrEqual(1);
    notifications.close();
    expect(smtp.messages).toHaveLength(1);
    const mail = smtp.messages[0];
    expect(mail.to).toEqual([client.email]);
    expect(mail.from).toContain('alerts@agency.test');
    expect(mail.subject).toMatch(/^A call needs your attention \(\+15550001111, /);
    expect(mail.text).toContain('Why: The call failed; The call ended with an error.');
    expect(mail.text).toMatch(/Open the call: http:\/\/localhost:5000\/dashboard\?call=/);
    // The call's reference, as the log and the drawer show it and the log's search finds it.
    const [stored] = await t.deps.db
      .selectFrom('calls')
      .select('id')
      .where('client_id', '=', client.id)
      .where('provider_call_id', '=', 'needs-a-person')
      .execute();
    expect(mail.text).toContain(`Call ID: ${stored?.id.slice(0, 8)}`);
    expect(mail.html).toContain(stored?.id.slice(0, 8));
    expect(mail.html).toContain('Bright Smile');
    expect(mail.messageId).toBe(`<${queued[0].id}@agency.test>`);
    expect((await outboxOf(client.id)).find((m) => m.channel === 'email')?.status).toBe('sent');
  });

  it('sends nothing when the client switched e-mail off, and nothing about a call handled meanwhile', async () => {
    const quiet = await createClient(t.deps);
    await saveNotificationPrefs(
      t.deps.db,
      quiet.id,
      {
        emailNotifications: false,
        smsNotifications: false,
        webhookNotifications: false,
        monthlyReports: false,
      },
      clock,
    );
    await storeCalls(t.deps, quiet, [failed()]);
    expect(await outboxOf(quiet.id)).toHaveLength(0);

    const busy = await createClient(t.deps);
    await storeCalls(t.deps, busy, [failed({ providerCallId: 'handled-first' })]);
    await t.deps.db
      .updateTable('calls')
      .set({ handled_at: clock, handled_by: 'x' })
      .where('client_id', '=', busy.id)
      .execute();
    const notifications = createNotifications(t.deps, () => {});
    await notifications.worker.runOnce();
    notifications.close();
    expect(smtp.messages).toHaveLength(0);
    expect((await outboxOf(busy.id)).find((m) => m.channel === 'email')?.status).toBe('cancelled');
  });

  it('retries a relay that says "try later" with backoff, and gives up on a refusal', async () => {
    const client = await createClient(t.deps);
    await storeCalls(t.deps, client, [failed({ providerCallId: 'try-later' })]);
    const notifications = createNotifications(t.deps, () => {});
    smtp.failNext(1, 451);
    await notifications.worker.runOnce();
    let [mail] = (await outboxOf(client.id)).filter((m) => m.channel === 'email');
    expect(mail).toMatchObject({ status: 'pending', attempts: 1 });
    expect(Number(mail.next_attempt_at)).toBe(clock + 30_000);
    // Not due yet: nothing happens; 30 s later it goes.
    await notifications.worker.runOnce();
    expect(smtp.messages).toHaveLength(0);
    clock += 30_000;
    await notifications.worker.runOnce();
    expect(smtp.messages).toHaveLength(1);
    [mail] = (await outboxOf(client.id)).filter((m) => m.channel === 'email');
    expect(mail).toMatchObject({ status: 'sent', attempts: 2 });

    const refused = await createClient(t.deps);
    await storeCalls(t.deps, refused, [failed({ providerCallId: 'refused' })]);
    smtp.failNext(1, 550);
    await notifications.worker.runOnce();
    notifications.close();
    expect((await outboxOf(refused.id)).find((m) => m.channel === 'email')).toMatchObject({
      status: 'cancelled',
      last_error: expect.stringContaining('refused by the mail server'),
    });
  });

  it('a worker killed after claiming loses nothing: the lease ends and another worker sends it, once', async () => {
    const client = await createClient(t.deps);
    await storeCalls(t.deps, client, [failed({ providerCallId: 'killed-mid-send' })]);
    // "Worker A" claims and dies (kill -9: no mark, no release).
    const claimed = await claimDue(t.deps.db, t.deps.dialect, 'worker-a', clock, ['email']);
    expect(claimed.map((m) => m.client_id)).toContain(client.id);
    const b = createNotifications({ ...t.deps, instanceId: 'worker-b' }, () => {});
    await b.worker.runOnce();
    expect(smtp.messages).toHaveLength(0); // still A's
    clock += CLAIM_LEASE_MS + 1;
    await b.worker.runOnce();
    b.close();
    expect(smtp.messages.filter((m) => m.subject.startsWith('A call needs'))).toHaveLength(1);
  });

  it('two instances working the same outbox send each message exactly once', async () => {
    const client = await createClient(t.deps);
    await storeCalls(
      t.deps,
      client,
      Array.from({ length: 12 }, (_, i) =>
        failed({ providerCallId: `burst-${i}`, createdAt: clock - i * 1000 }),
      ),
    );
    // A second instance: its own connection pool to the same database.
    const second = await createDeps(t.config, { db: t.reopenDb(), now: () => clock });
    const one = createNotifications({ ...t.deps, instanceId: 'instance-1' }, () => {});
    const two = createNotifications({ ...second.deps, instanceId: 'instance-2' }, () => {});
    await Promise.all([
      one.worker.runOnce(),
      two.worker.runOnce(),
      one.worker.runOnce(),
      two.worker.runOnce(),
    ]);
    one.close();
    two.close();
    await second.close();
    const ids = smtp.messages.map((m) => m.messageId);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
    expect((await outboxOf(client.id)).filter((m) => m.status === 'sent')).toHaveLength(12);
  });
});
