/**
 * One period, one number: the same local days read the same calls on the dashboard
 * (stats of a custom range), in the monthly PDF, in the digest e-mail and in the export, for a
 * client whose zone is not UTC and whose calls sit on the periods' edges (a second before and at
 * local midnight, across the end of daylight saving time).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveNotificationPrefs } from '../../src/server/account/notification-prefs';
import { createNotifications } from '../../src/server/notifications';
import { plainEmailBrand, renderQueuedEmail } from '../../src/server/notifications/email-layout';
import { storeCalls } from '../helpers/calls';
import { createClient, loginClient } from '../helpers/factories';
import { pdfText } from '../helpers/pdf-text';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const LA = 'America/Los_Angeles';
// Monday Nov 2, 2026, 08:05 in Los Angeles (PST since 02:00 on Sunday Nov 1): the weekly digest's hour.
const NOW = Date.UTC(2026, 10, 2, 16, 5);

// The client first signs in on Tuesday Oct 20, before the digest's week: a digest covers only days
// from the first sign-in on.
const FIRST_SIGN_IN = Date.UTC(2026, 9, 20, 17, 0);
let clock = NOW;

describe(`the same period reads the same numbers everywhere (${TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts October and the last week alike on the dashboard, the PDF, the digest and the export', async () => {
    const client = await createClient(t.deps, { timezone: LA, company_name: 'Edge Cases Inc' });
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
      NOW,
    );
    const at = (iso: string) => Date.parse(iso);
    await storeCalls(t.deps, client, [
      // Sept 30, 23:59:59 PDT: September.
      { createdAt: at('2026-10-01T06:59:59Z') },
      // Oct 1, 00:00 PDT: October's first instant.
      { createdAt: at('2026-10-01T07:00:00Z'), durationSeconds: 90 },
      { createdAt: at('2026-10-14T18:00:00Z'), status: 'transferred', durationSeconds: 200 },
      // Oct 25, 23:59:59 PDT: October, the week before the digest's.
      { createdAt: at('2026-10-26T06:59:59Z') },
      // Oct 26, 00:00 PDT: the digest's week starts.
      { createdAt: at('2026-10-26T07:00:00Z'), durationSeconds: 30 },
      { createdAt: at('2026-10-28T20:00:00Z'), status: 'failed', durationSeconds: 0 },
      // Oct 31, 23:59:59 PDT: still October (November already in UTC).
      { createdAt: at('2026-11-01T06:59:59Z'), durationSeconds: 45 },
      // Nov 1, 00:30 PDT, and 23:30 PST (after the clocks went back): the week's Sunday.
      { createdAt: at('2026-11-01T07:30:00Z') },
      { createdAt: at('2026-11-02T07:30:00Z') },
      // Monday Nov 2, 00:10 PST: after the week.
      { createdAt: at('2026-11-02T08:10:00Z') },
    ]);
    const october = { from: '2026-10-01', to: '2026-10-31', calls: 6 };
    const week = { from: '2026-10-26', to: '2026-11-01', calls: 5 };

    clock = FIRST_SIGN_IN;
    await loginClient(t.app, client.email);
    clock = NOW;
    const cookie = await loginClient(t.app, client.email);
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
    const dashboard = async (days: { from: string; to: string }) => {
      const res = await get(`/api/client/stats?dateRange=30d&from=${days.from}&to=${days.to}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().totalCalls as number;
    };
    const exported = async (days: { from: string; to: string }) => {
      const res = await get(`/api/client/calls/export?format=csv&from=${days.from}&to=${days.to}`);
      expect(res.statusCode, res.body).toBe(200);
      // One line a call under the header (the test calls have no line breaks in their fields).
      return (
        res.body
          .replace(/^\uFEFF/, '')
          .trim()
          .split(/\r?\n/).length - 1
      );
    };

    // October: the dashboard's custom range, the PDF, the export.
    const pdf = await get('/api/client/reports/monthly?month=2026-10');
    expect(pdf.statusCode).toBe(200);
    const printed = /Calls\n([\d,]+)\n/.exec(pdfText(pdf.rawPayload))?.[1];
    expect({
      dashboard: await dashboard(october),
      pdf: Number(printed),
      export: await exported(october),
    }).toEqual({ dashboard: october.calls, pdf: october.calls, export: october.calls });

    // The week before Monday: the dashboard's custom range, the digest, the export.
    await createNotifications(t.deps, () => {}).checkAlerts();
    const digests = await t.deps.db
      .selectFrom('outbox')
      .select('payload_json')
      .where('client_id', '=', client.id)
      .where('topic', '=', 'digest.weekly')
      .execute();
    expect(digests).toHaveLength(1);
    const mail = renderQueuedEmail(JSON.parse(digests[0].payload_json), plainEmailBrand('Call Analytics'));
    // The same days, as the client's (US) dates write them.
    expect(mail.text).toContain('last week (10/26/2026 to 11/1/2026)');
    expect({
      dashboard: await dashboard(week),
      digest: Number(/^Call Analytics: ([\d,]+) calls last week$/.exec(mail.subject)?.[1]),
      export: await exported(week),
    }).toEqual({ dashboard: week.calls, digest: week.calls, export: week.calls });
  });
});
