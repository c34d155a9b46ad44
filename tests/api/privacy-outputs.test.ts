/**
 * What the privacy features hand out, through the real app: an erasure's two documents
 * (the caller's plain, branded confirmation and the agency's internal report), the caller's own
 * number kept or not under phone redaction, the fictional 555-01xx numbers redacted like real
 * ones, and the caller's data export as JSON, CSV or PDF.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetBrand } from '../../src/server/brand/brand-store';
import { storeCalls } from '../helpers/calls';
import { createAdminUser, createSignedInClient, loginAdmin } from '../helpers/factories';
import { pdfText, pdfWords } from '../helpers/pdf-text';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const transcriptOf = (lines: string[]) =>
  lines.map((text, i) => ({ role: i % 2 === 0 ? 'agent' : 'user', text }));
const insightsWith = (summary: string) => ({
  summary,
  answeredBy: 'human',
  endedBy: 'user',
  errorMessage: null,
  dispositionTag: null,
  analysis: {},
  variables: {},
});
/** What a caller must never read: our internals and the platforms' names. */
const INTERNALS = /delivery log|live event|platform id|provider|webhook|Bland|Vapi|Retell/i;

describe(`privacy outputs for a caller and for the agency (${TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp();
    const a = await createAdminUser(t.deps);
    admin = await loginAdmin(t.app, a.username, a.password);
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/brand',
      headers: { cookie: admin },
      payload: { name: 'Northwind Voice', footerText: 'Northwind Voice Ltd · Leeds' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const bytes = await sharp({
      create: { width: 240, height: 60, channels: 4, background: { r: 20, g: 60, b: 160, alpha: 1 } },
    })
      .png()
      .toBuffer();
    await t.deps.db
      .insertInto('brand_assets')
      .values({
        variant: 'light',
        content_type: 'image/png',
        bytes,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        width: 240,
        height: 60,
        updated_at: t.deps.now(),
      })
      .execute();
    forgetBrand(t.deps);
  });
  afterAll(async () => {
    await t?.close();
  });

  const req = (method: 'GET' | 'POST' | 'PUT', url: string, cookie: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { cookie } });

  async function erased(cookie: string, phone: string) {
    const asked = await req('POST', '/api/client/erasure', cookie, { phone });
    expect(asked.statusCode, asked.body).toBe(202);
    const { id } = asked.json();
    await expect
      .poll(async () => (await req('GET', `/api/client/erasure/${id}`, cookie)).json().state, {
        timeout: 10_000,
      })
      .toBe('done');
    return (await req('GET', `/api/client/erasure/${id}`, cookie)).json();
  }

  it('gives the caller a branded, plain confirmation and the agency the internal report', async () => {
    // A platform with no delete API keeps its copies: the caller is told, without its name.
    const { client, cookie } = await createSignedInClient(t, { company_name: 'Acme Dental' });
    await storeCalls(t.deps, client, [
      { fromNumber: '+12125550100', transcript: transcriptOf(['Hello', 'Hi there']) },
      { toNumber: '+12125550100' },
      { fromNumber: '+13125550199' },
    ]);
    const status = await erased(cookie, '(212) 555-0100');
    expect(status.providers).toEqual([expect.objectContaining({ unsupported: 2, deleted: 0 })]);
    expect(status.reportUrl).toBe(`/api/client/erasure/${status.id}/report`);

    const receipt = await req('GET', status.receiptUrl, cookie);
    expect(receipt.statusCode).toBe(200);
    expect(receipt.headers['content-type']).toBe('application/pdf');
    expect(receipt.headers['content-disposition']).toMatch(/erasure-receipt-.+\.pdf/);
    // The agency's logo and name head it.
    expect(receipt.rawPayload.toString('latin1')).toMatch(/\/Subtype \/Image/);
    const words = pdfWords(receipt.rawPayload);
    expect(words).toContain('Northwind Voice');
    expect(words).toContain('Northwind Voice Ltd · Leeds');
    expect(words).toContain('Confirmation of erasure');
    expect(words).toContain('+1 212 555 0100');
    expect(words).toMatch(/Acme Dental erased 2 calls linked to this phone number/);
    expect(words).toMatch(/may still hold 2 calls/);
    expect(words).toMatch(/ask Acme Dental: it will pass your request on/);
    expect(words).not.toMatch(INTERNALS);
    expect(words).not.toMatch(/no personal data remains/i);

    const report = await req('GET', status.reportUrl, cookie);
    expect(report.statusCode).toBe(200);
    expect(report.headers['content-type']).toBe('application/pdf');
    expect(report.headers['content-disposition']).toMatch(/erasure-report-.+\.pdf/);
    const internal = pdfWords(report.rawPayload);
    expect(internal).toContain('Erasure report (internal)');
    expect(internal).toMatch(/delivery log \d+, messages \d+, live events \d+/);
    expect(internal).toMatch(/Calls removed: 2/);
    // The client is not told the platform's name; the agency is.
    expect(internal).not.toMatch(/Bland/);
    const agency = await req('GET', `/api/admin/client-erasure/${client.id}/${status.id}/report`, admin);
    expect(agency.statusCode).toBe(200);
    expect(pdfWords(agency.rawPayload)).toMatch(/Bland AI: 0 deleted, 0 failed, 2 not deletable/);
    // The JSON record keeps its shape and no longer claims nothing remains while the platform holds calls.
    const json = (await req('GET', `${status.receiptUrl}?format=json`, cookie)).json();
    expect(json).toMatchObject({ receipt: 'erasure', calls: 2, copies: { liveEvents: expect.any(Number) } });
    expect(json.kept).toMatch(/the platform may still hold 2 calls/);

    // Named to the caller only when the agency shows this client its platform.
    const shown = await req('PUT', `/api/admin/client-config/${client.id}`, admin, {
      showPlatformDetails: true,
    });
    expect(shown.statusCode, shown.body).toBe(200);
    const named = pdfWords((await req('GET', status.receiptUrl, cookie)).rawPayload);
    expect(named).toMatch(/ask Bland AI directly/);

    // Not done, not theirs: as for the receipt.
    const other = await createSignedInClient(t);
    expect((await req('GET', status.reportUrl, other.cookie)).statusCode).toBe(404);
  });

  it('keeps the caller’s own number where the caller says it unless told not to; other numbers go', async () => {
    const { client, cookie } = await createSignedInClient(t);
    const on = await req('PUT', '/api/client/privacy', cookie, { redaction: { phones: true } });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().keepCallerNumber).toBe(true);
    const said = (id: string) => ({
      providerCallId: id,
      fromNumber: '+12125550142',
      insights: insightsWith('Call back on 212 555 0142, or her sister on 212 555 0177.'),
      transcript: transcriptOf(['Best number?', 'This one, 212 555 0142, or my sister on 212 555 0177']),
    });
    await storeCalls(t.deps, client, [said('kept-1')]);
    const summaryOf = async (providerCallId: string) => {
      const row = await t.deps.db
        .selectFrom('calls')
        .select(['summary', 'transcript'])
        .where('client_id', '=', client.id)
        .where('provider_call_id', '=', providerCallId)
        .executeTakeFirstOrThrow();
      return `${row.summary} ${row.transcript}`;
    };
    const kept = await summaryOf('kept-1');
    expect(kept).toContain('Call back on 212 555 0142, or her sister on [PHONE].');
    expect(kept).not.toContain('0177');

    const off = await req('PUT', '/api/client/privacy', cookie, { keepCallerNumber: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().keepCallerNumber).toBe(false);
    expect((await req('GET', '/api/client/privacy', cookie)).json().keepCallerNumber).toBe(false);
    await storeCalls(t.deps, client, [said('redacted-1')]);
    const redacted = await summaryOf('redacted-1');
    expect(redacted).toContain('Call back on [PHONE], or her sister on [PHONE].');
    expect(redacted).not.toMatch(/0142|0177/);
    // The calls stored before are redacted again for it.
    await expect.poll(async () => summaryOf('kept-1'), { timeout: 10_000 }).not.toContain('0142');

    expect((await req('PUT', '/api/client/privacy', cookie, { keepCallerNumber: 'no' })).statusCode).toBe(
      400,
    );
  });

  it('redacts the fictional 555-01xx numbers a caller gives like real ones', async () => {
    const { client, cookie } = await createSignedInClient(t);
    await req('PUT', '/api/client/privacy', cookie, { redaction: { phones: true } });
    await storeCalls(t.deps, client, [
      {
        providerCallId: 'fiction-1',
        fromNumber: '+13125550100',
        insights: insightsWith('Jane, (555) 555-0123, asked for a quote; her office is 555-0199.'),
      },
    ]);
    const row = await t.deps.db
      .selectFrom('calls')
      .select('summary')
      .where('provider_call_id', '=', 'fiction-1')
      .executeTakeFirstOrThrow();
    expect(row.summary).toBe('Jane, [PHONE], asked for a quote; her office is [PHONE].');
  });

  it('exports a caller’s data as JSON by default, or as CSV or a readable PDF; a bad format is a 400', async () => {
    const { client, cookie } = await createSignedInClient(t, { company_name: 'Acme Dental' });
    await storeCalls(t.deps, client, [
      {
        fromNumber: '+12125550100',
        durationSeconds: 125,
        transcript: transcriptOf(['How can I help?', '=SUM(A1) is not a number, my card is 4242']),
        insights: insightsWith('The caller asked about opening hours.'),
      },
      { fromNumber: '+13125550199', insights: insightsWith('Someone else entirely.') },
    ]);
    const url = '/api/client/subject-export';
    const phone = { phone: '+1 212 555 0100' };

    const json = await req('POST', url, cookie, phone);
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(json.body).calls).toHaveLength(1);

    const csv = await req('POST', `${url}?format=csv`, cookie, phone);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="caller-data-12125550100.csv"');
    const lines = csv.body.replace(/^\uFEFF/, '');
    expect(lines.split('\n')[0]).toBe(
      'Call,Time,From,To,Duration (seconds),Status,Outcome,Summary,Transcript,Details collected,Recording kept',
    );
    expect(lines).toContain('The caller asked about opening hours.');
    expect(lines).toContain('AI Agent: How can I help?');
    // A cell a spreadsheet would run as a formula is not one.
    expect(lines).not.toMatch(/(^|,|")=SUM/m);
    expect(lines).not.toContain('Someone else entirely');

    const pdf = await req('POST', `${url}?format=pdf`, cookie, phone);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe('attachment; filename="caller-data-12125550100.pdf"');
    const words = pdfWords(pdf.rawPayload);
    expect(words).toContain('Northwind Voice');
    expect(words).toContain('Your data held by Acme Dental');
    expect(words).toContain('+1 212 555 0100');
    expect(words).toContain('The caller asked about opening hours.');
    expect(words).toContain('AI Agent: How can I help?');
    expect(words).toContain('2 min 5 s');
    expect(words).not.toContain('Someone else entirely');
    expect(pdfText(pdf.rawPayload)).not.toMatch(INTERNALS);

    for (const format of ['xml', 'PDF', ''])
      expect((await req('POST', `${url}?format=${format}`, cookie, phone)).statusCode).toBe(400);
    expect((await req('POST', `${url}?format=pdf&extra=1`, cookie, phone)).statusCode).toBe(400);
    const byAdmin = await req(
      'POST',
      `/api/admin/client-subject-export/${client.id}?format=csv`,
      admin,
      phone,
    );
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.body).toContain('opening hours');
  });
});
