/**
 * Digests and the monthly report: the numbers of a period in the client's time zone
 * (a DST change inside it), the PDF and the numbers printed in it, GET /api/client/reports/monthly,
 * and the schedules: 08:00 local, Mondays for the weekly digest, the 1st for the report, once each
 * however many checks run, across time zones and the DST change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveNotificationPrefs } from '../../src/server/account/notification-prefs';
import { createNotifications } from '../../src/server/notifications';
import { plainEmailBrand, renderQueuedEmail } from '../../src/server/notifications/email-layout';
import { digestDue, reportMonthDue } from '../../src/server/notifications/scheduled-reports';
import { renderMonthlyPdf } from '../../src/server/reports/monthly-pdf';
import { periodReport } from '../../src/server/reports/period-report';
import { storeCalls } from '../helpers/calls';
import { createClient, createSubscription, loginClient } from '../helpers/factories';
import { pdfText } from '../helpers/pdf-text';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const NY = 'America/New_York';
/** The clients' first sign-in: before every period these tests report on. */
const SIGNED_IN_SINCE = Date.UTC(2026, 8, 1);
// 2026-11-01 08:30 in New York (EST, after the clocks went back at 02:00 that morning): a Sunday.
let clock = Date.UTC(2026, 10, 1, 13, 30);

describe(`digests and monthly reports (${TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function octoberClient(
    prefs: Partial<{ monthlyReports: boolean; digest: 'off' | 'daily' | 'weekly' }> = {},
  ) {
    // Signed in since September: its digests and reports cover October (a digest never covers days
    // before the first sign-in).
    const client = await createClient(t.deps, {
      timezone: NY,
      company_name: 'Bright Smiles Dental',
      notify_from: SIGNED_IN_SINCE,
    });
    await saveNotificationPrefs(
      t.deps.db,
      client.id,
      {
        emailNotifications: true,
        smsNotifications: false,
        webhookNotifications: false,
        monthlyReports: prefs.monthlyReports ?? true,
        digest: prefs.digest ?? 'weekly',
      },
      clock,
    );
    await createSubscription(t.deps, client.id);
    await storeCalls(t.deps, client, [
      // October in New York: the 1st at 00:30 EDT is Sept 30, 04:30 UTC … the 31st at 23:30 EDT is Nov 1, 03:30 UTC.
      { createdAt: Date.UTC(2026, 9, 1, 4, 30), durationSeconds: 120, pathway: 'Booking' },
      { createdAt: Date.UTC(2026, 9, 14, 15, 0), durationSeconds: 300, pathway: 'Booking' },
      { createdAt: Date.UTC(2026, 9, 14, 16, 0), durationSeconds: 180, pathway: 'Support' },
      { createdAt: Date.UTC(2026, 9, 20, 15, 0), durationSeconds: 0, status: 'failed', pathway: 'Support' },
      {
        createdAt: Date.UTC(2026, 9, 22, 15, 0),
        durationSeconds: 240,
        status: 'transferred',
        pathway: 'Booking',
      },
      { createdAt: Date.UTC(2026, 10, 1, 3, 30), durationSeconds: 60, pathway: 'Booking' },
      // Not October in New York: Sept 30 23:59 EDT and Nov 1 00:00 EDT.
      { createdAt: Date.UTC(2026, 9, 1, 3, 59), durationSeconds: 600, pathway: 'Booking' },
      { createdAt: Date.UTC(2026, 10, 1, 4, 0), durationSeconds: 600, pathway: 'Booking' },
    ]);
    return client;
  }

  it('counts October in New York, and prints the same numbers in the PDF', async () => {
    const client = await octoberClient();
    const report = await periodReport(t.deps.db, client, '2026-10-01', '2026-10-31');
    expect(report.stats).toMatchObject({ totalCalls: 6, totalTransfers: 1 });
    expect(report.minutes).toBe(15); // 120 + 300 + 180 + 0 + 240 + 60 seconds
    expect(report.perDay).toHaveLength(31);
    expect(report.perDay.reduce((n, d) => n + d.count, 0)).toBe(4); // completed ones
    expect(report.perDay.find((d) => d.date === '2026-10-14')?.count).toBe(2);
    expect(report.perDay.find((d) => d.date === '2026-10-31')?.count).toBe(1);
    expect(report.topPathways).toEqual([
      { pathway: 'Booking', calls: 4 },
      { pathway: 'Support', calls: 2 },
    ]);
    expect(report.plan).toEqual({ name: 'Starter', minutesIncluded: 500, monthlyPrice: 49 });

    const text = pdfText(await renderMonthlyPdf(report, '2026-10', 'Call Analytics'));
    expect(text).toContain('Monthly report · October 2026');
    // A US client's dates as the US writes them; October in New York is all EDT (clocks went back on Nov 1).
    expect(text).toContain('Bright Smiles Dental · 10/1/2026 to 10/31/2026 · times in EDT');
    expect(text).toMatch(/Calls\n6\n/);
    expect(text).toMatch(/Minutes\n15\n/);
    expect(text).toMatch(/Booking\n4\nSupport\n2/);
    expect(text).toContain('Starter plan: 15 of 500 minutes used (3%)');
  });

  it('serves the PDF for a month, and refuses months to come and bad input', async () => {
    const client = await octoberClient();
    const cookie = await loginClient(t.app, client.email);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/client/reports/monthly?month=2026-10',
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="report-2026-10.pdf"');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfText(res.rawPayload)).toMatch(/Calls\n6\n/);
    // The month so far.
    const current = await t.app.inject({
      method: 'GET',
      url: '/api/client/reports/monthly?month=2026-11',
      headers: { cookie },
    });
    expect(current.statusCode).toBe(200);
    expect(pdfText(current.rawPayload)).toContain('11/1/2026 to 11/1/2026');
    for (const month of ['2026-12', '2026-13', '26-10', '', '2026-10-01']) {
      const bad = await t.app.inject({
        method: 'GET',
        url: `/api/client/reports/monthly?month=${month}`,
        headers: { cookie },
      });
      expect(bad.statusCode, month).toBe(400);
    }
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/client/reports/monthly?month=2026-10' })).statusCode,
    ).toBe(401);
  });

  it('queues last month’s report on the 1st after 08:00 local, with the PDF, once', async () => {
    const client = await octoberClient();
    const off = await octoberClient({ monthlyReports: false });
    const reportsOf = async (id: string) =>
      (
        await t.deps.db
          .selectFrom('outbox')
          .selectAll()
          .where('client_id', '=', id)
          .where('topic', '=', 'report.monthly')
          .execute()
      ).map((r) => renderQueuedEmail(JSON.parse(r.payload_json), plainEmailBrand('Call Analytics')));
    const check = () => createNotifications(t.deps, () => {}).checkAlerts();

    clock = Date.UTC(2026, 10, 1, 12, 55); // 07:55 EST: not yet
    await check();
    expect(await reportsOf(client.id)).toHaveLength(0);
    clock = Date.UTC(2026, 10, 1, 13, 5); // 08:05 EST
    await check();
    await check();
    const [mail] = await reportsOf(client.id);
    expect(await reportsOf(client.id)).toHaveLength(1);
    expect(mail).toMatchObject({ to: client.email, subject: 'Call Analytics: monthly report, 2026-10' });
    expect(mail.text).toContain('6 calls, 15 minutes');
    expect(mail.attachments?.[0]).toMatchObject({
      filename: 'report-2026-10.pdf',
      contentType: 'application/pdf',
    });
    expect(pdfText(Buffer.from(mail.attachments?.[0].contentBase64 ?? '', 'base64'))).toMatch(/Calls\n6\n/);
    expect(await reportsOf(off.id)).toHaveLength(0);
  });

  it('sends the weekly digest on Monday at 08:00 local and the daily one every morning, across zones', async () => {
    const ny = await octoberClient({ digest: 'weekly' });
    const tokyo = await createClient(t.deps, { timezone: 'Asia/Tokyo', notify_from: SIGNED_IN_SINCE });
    await saveNotificationPrefs(
      t.deps.db,
      tokyo.id,
      {
        emailNotifications: true,
        smsNotifications: false,
        webhookNotifications: false,
        monthlyReports: false,
        digest: 'daily',
      },
      clock,
    );
    const digestsOf = async (id: string) =>
      t.deps.db
        .selectFrom('outbox')
        .select(['topic', 'payload_json'])
        .where('client_id', '=', id)
        .where('topic', 'like', 'digest.%')
        .execute();
    const check = () => createNotifications(t.deps, () => {}).checkAlerts();

    // Monday Nov 2, 2026 at 07:30 in New York (12:30 UTC) is 21:30 in Tokyo: Tokyo's digest went at its 08:00.
    clock = Date.UTC(2026, 10, 2, 12, 30);
    await check();
    expect(await digestsOf(ny.id)).toHaveLength(0);
    expect((await digestsOf(tokyo.id)).map((d) => d.topic)).toEqual(['digest.daily']);
    clock = Date.UTC(2026, 10, 2, 13, 0); // 08:00 EST
    await check();
    await check();
    const weekly = await digestsOf(ny.id);
    expect(weekly.map((d) => d.topic)).toEqual(['digest.weekly']);
    // Queued as content; the e-mail channel renders it with the brand (default: AGENCY_NAME's).
    const mail = renderQueuedEmail(JSON.parse(weekly[0].payload_json), plainEmailBrand('Call Analytics'));
    // Oct 26 – Nov 1: the call on Oct 31 at 23:30 EDT and the one at Nov 1 00:00 EDT.
    expect(mail.subject).toBe('Call Analytics: 2 calls last week');
    expect(mail.text).toContain('last week (10/26/2026 to 11/1/2026), times in EDT/EST.');
    // Tuesday in New York: no weekly digest.
    clock = Date.UTC(2026, 10, 3, 14, 0);
    await check();
    expect(await digestsOf(ny.id)).toHaveLength(1);
    expect((await digestsOf(tokyo.id)).map((d) => d.topic)).toEqual(['digest.daily', 'digest.daily']);
  });

  it('knows which digest and which month are due on a local date', () => {
    expect(digestDue('weekly', '2026-11-02')).toEqual({
      kind: 'weekly',
      from: '2026-10-26',
      to: '2026-11-01',
    });
    expect(digestDue('weekly', '2026-11-03')).toBeNull();
    expect(digestDue('daily', '2026-03-09')).toEqual({ kind: 'daily', from: '2026-03-08', to: '2026-03-08' });
    expect(digestDue('off', '2026-11-02')).toBeNull();
    expect(reportMonthDue('2026-01-01')).toEqual({ month: '2025-12', from: '2025-12-01', to: '2025-12-31' });
    expect(reportMonthDue('2026-03-01')).toEqual({ month: '2026-02', from: '2026-02-01', to: '2026-02-28' });
    expect(reportMonthDue('2026-03-02')).toBeNull();
  });
});
