/**
 * The client's time zone everywhere: the wizard stores the zone it was given, the Owner
 * changes it in Settings, and what the client receives (a call e-mail, the digest, the monthly
 * PDF, the calls export) writes times in that zone, in the locale its country gives, naming the
 * zone by its short name.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveNotificationPrefs } from '../../src/server/account/notification-prefs';
import { createNotifications } from '../../src/server/notifications';
import { callEmail } from '../../src/server/notifications/call-messages';
import { plainEmailBrand, renderQueuedEmail } from '../../src/server/notifications/email-layout';
import { renderMonthlyPdf } from '../../src/server/reports/monthly-pdf';
import { periodReport } from '../../src/server/reports/period-report';
import { storeCalls } from '../helpers/calls';
import { createAdminUser, createClient, loginAdmin, loginClient } from '../helpers/factories';
import { pdfText } from '../helpers/pdf-text';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const BERLIN = 'Europe/Berlin';
// Monday, Dec 7, 2026, 08:30 in Berlin (CET, UTC+1): the weekly digest's morning.
const clock = Date.UTC(2026, 11, 7, 7, 30);

describe(`the client's time zone (${TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
    const a = await createAdminUser(t.deps);
    admin = await loginAdmin(t.app, a.username, a.password);
  });
  afterAll(async () => {
    await t?.close();
  });

  const zoneOf = async (id: string) =>
    (await t.deps.db.selectFrom('clients').select('timezone').where('id', '=', id).executeTakeFirstOrThrow())
      .timezone;

  /** A German client, signed in since the autumn, with a few calls in Berlin's November. */
  async function berlinClient() {
    const client = await createClient(t.deps, {
      timezone: BERLIN,
      country: 'Germany',
      company_name: 'Zahnarzt Müller',
      notify_from: Date.UTC(2026, 8, 1),
    });
    await storeCalls(t.deps, client, [
      // Nov 30, 23:30 in Berlin (22:30 UTC): November there, in the UTC day before December.
      { createdAt: Date.UTC(2026, 10, 30, 22, 30), durationSeconds: 120, providerCallId: `b1-${client.id}` },
      // Nov 3, 14:05 in Berlin.
      { createdAt: Date.UTC(2026, 10, 3, 13, 5), durationSeconds: 60, providerCallId: `b2-${client.id}` },
    ]);
    return client;
  }

  it('stores the zone the wizard sends, refuses an unknown one, and keeps UTC when none is sent', async () => {
    const form = (over: Record<string, unknown>) => ({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: `grace-${Math.random().toString(36).slice(2)}@example.com`,
      country: 'US',
      state: 'CA',
      ...over,
    });
    const post = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/generate-webhook',
        payload,
        headers: { cookie: admin },
      });

    const created = await post(form({ timezone: 'America/Los_Angeles' }));
    expect(created.statusCode).toBe(201);
    expect(await zoneOf(created.json().id)).toBe('America/Los_Angeles');

    const bad = await post(form({ timezone: 'Mars/Olympus' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields?.timezone).toMatch(/valid time zone/);

    const none = await post(form({}));
    expect(none.statusCode).toBe(201);
    expect(await zoneOf(none.json().id)).toBe('UTC');
  });

  it('lets the Owner change the zone in Settings, and the session and local days follow', async () => {
    const client = await createClient(t.deps, { timezone: 'UTC' });
    const cookie = await loginClient(t.app, client.email);
    const put = (payload: object) =>
      t.app.inject({ method: 'PUT', url: '/api/client/account', payload, headers: { cookie } });

    const bad = await put({ timezone: 'Nowhere/Special' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields?.timezone).toMatch(/valid time zone/);
    expect(await zoneOf(client.id)).toBe('UTC');

    // Dec 6, 23:30 UTC is Dec 7 in Berlin: the call moves to the next local day with the zone.
    await storeCalls(t.deps, client, [{ createdAt: Date.UTC(2026, 11, 6, 23, 30), durationSeconds: 30 }]);
    const days = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/client/calls-over-time?dateRange=7d',
          headers: { cookie },
        })
      ).json() as { date: string; count: number }[];
    expect((await days()).find((d) => d.count > 0)?.date).toBe('2026-12-06');

    const res = await put({ timezone: BERLIN });
    expect(res.statusCode).toBe(200);
    expect(res.json().client.timezone).toBe(BERLIN);
    expect(await zoneOf(client.id)).toBe(BERLIN);
    const session = await t.app.inject({ method: 'GET', url: '/api/client/session', headers: { cookie } });
    expect(session.json().timezone).toBe(BERLIN);
    expect((await days()).find((d) => d.count > 0)?.date).toBe('2026-12-07');
  });

  it('writes a call e-mail’s time in the client’s zone and date format, naming the zone', async () => {
    const client = await berlinClient();
    const call = await t.deps.db
      .selectFrom('calls')
      .selectAll()
      .where('client_id', '=', client.id)
      .where('provider_call_id', '=', `b2-${client.id}`)
      .executeTakeFirstOrThrow();
    const mail = renderQueuedEmail(
      callEmail(call, client, ['The call failed'], { publicUrl: 'http://localhost:5000' }),
      plainEmailBrand('Call Analytics'),
    );
    expect(mail.subject).toContain('3.11.2026, 14:05 GMT+1');
    expect(mail.text).toContain('3.11.2026, 14:05 GMT+1');
    expect(mail.text).not.toMatch(/UTC|2026-11-03/);
  });

  it('dates the weekly digest and the monthly PDF as the client’s country writes them', async () => {
    const client = await berlinClient();
    await saveNotificationPrefs(
      t.deps.db,
      client.id,
      {
        emailNotifications: true,
        smsNotifications: false,
        webhookNotifications: false,
        monthlyReports: true,
        digest: 'weekly',
      },
      clock,
    );
    await createNotifications(t.deps, () => {}).checkAlerts();
    const [digest] = await t.deps.db
      .selectFrom('outbox')
      .select('payload_json')
      .where('client_id', '=', client.id)
      .where('topic', '=', 'digest.weekly')
      .execute();
    const mail = renderQueuedEmail(JSON.parse(digest.payload_json), plainEmailBrand('Call Analytics'));
    // Nov 30 – Dec 6 in Berlin: the call at 23:30 on Nov 30 is in it.
    expect(mail.subject).toBe('Call Analytics: 1 calls last week');
    expect(mail.text).toContain('Your calls last week (30.11.2026 to 6.12.2026), times in GMT+1.');
    expect(mail.text).not.toContain('in UTC');

    const report = await periodReport(t.deps.db, client, '2026-11-01', '2026-11-30');
    expect(report.stats.totalCalls).toBe(2);
    const text = pdfText(await renderMonthlyPdf(report, '2026-11', 'Call Analytics'));
    expect(text).toContain('Zahnarzt Müller · 1.11.2026 to 30.11.2026 · times in GMT+1');
    // The chart's axis counts the days of the month: a number reads the same in every locale.
    expect(text).toContain('Day of the month');
    expect(text).not.toContain('2026-11-01');
  });

  it('exports a Local time column in the client’s zone and format, beside the machine-readable one', async () => {
    const client = await berlinClient();
    const cookie = await loginClient(t.app, client.email);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/client/calls/export?format=csv&status=all&from=2026-11-01&to=2026-11-30',
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    const rows: Record<string, string>[] = parse(res.rawPayload, { bom: true, columns: true });
    expect(rows.map((r) => [r['Date and time'], r['Time zone'], r['Local time']])).toEqual([
      ['2026-11-30 23:30:00', BERLIN, '30.11.2026, 23:30 GMT+1'],
      ['2026-11-03 14:05:00', BERLIN, '3.11.2026, 14:05 GMT+1'],
    ]);

    // The agency's export of every client writes each row in its own client's zone and format.
    const all = await t.app.inject({
      method: 'GET',
      url: '/api/admin/calls/export?format=csv&status=all&from=2026-11-01&to=2026-11-30',
      headers: { cookie: admin },
    });
    const mine = (parse(all.rawPayload, { bom: true, columns: true }) as Record<string, string>[]).filter(
      (r) => r['Call ID'] === rows[1]['Call ID'],
    );
    expect(mine.map((r) => r['Local time'])).toEqual(['3.11.2026, 14:05 GMT+1']);
  });
});
