/**
 * The agency's brand in what leaves the product: an alert e-mail at the SMTP stand-in
 * carries the saved name, logo (an absolute URL), colours, footer, support contacts, the From
 * name and Reply-To; an e-mail queued before a brand change goes out with the new brand; a text
 * names the agency; the monthly PDF prints the name and footer and embeds the logo.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SmtpSim, startSmtpSim } from '../../sim/smtp';
import { startTwilioSim, type TwilioSim } from '../../sim/twilio';
import { saveNotificationPrefs } from '../../src/server/account/notification-prefs';
import { forgetBrand } from '../../src/server/brand/brand-store';
import { createNotifications } from '../../src/server/notifications';
import type { QueuedEmail } from '../../src/server/notifications/email-layout';
import { enqueue } from '../../src/server/notifications/outbox';
import { markVerified } from '../../src/server/notifications/sms-numbers';
import { NO_INSIGHTS } from '../../src/server/providers/voice/types';
import { storeCalls } from '../helpers/calls';
import { createAdminUser, createClient, loginAdmin, loginClient } from '../helpers/factories';
import { pdfText } from '../helpers/pdf-text';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const clock = Date.UTC(2026, 5, 10, 19, 0);

describe(`the brand in e-mails, texts and the PDF (${TEST_DB})`, () => {
  let t: TestApp;
  let smtp: SmtpSim;
  let twilio: TwilioSim;
  let admin: string;
  beforeAll(async () => {
    smtp = await startSmtpSim();
    twilio = await startTwilioSim({ accountSid: 'ACbrand00', authToken: 'token-brand' });
    t = await createTestApp({
      now: () => clock,
      env: {
        SMTP_URL: smtp.smtpUrl,
        MAIL_FROM: 'Call Analytics <alerts@agency.test>',
        PUBLIC_URL: 'https://calls.northwind.example',
        TWILIO_ACCOUNT_SID: 'ACbrand00',
        TWILIO_AUTH_TOKEN: 'token-brand',
        TWILIO_FROM: '+15005550006',
        TWILIO_API_URL: twilio.url,
      },
    });
    const a = await createAdminUser(t.deps);
    admin = await loginAdmin(t.app, a.username, a.password);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
    await twilio.close();
  });
  beforeEach(() => {
    smtp.clear();
    twilio.clear();
  });

  const saveBrand = async (payload: object) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/brand',
      headers: { cookie: admin },
      payload,
    });
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  /** A wide light logo, stored as the asset routes store it (re-encoded PNG). */
  const storeLogo = async () => {
    const bytes = await sharp({
      create: { width: 240, height: 60, channels: 4, background: { r: 20, g: 60, b: 160, alpha: 1 } },
    })
      .png()
      .toBuffer();
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    await t.deps.db
      .insertInto('brand_assets')
      .values({
        variant: 'light',
        content_type: 'image/png',
        bytes,
        sha256,
        width: 240,
        height: 60,
        updated_at: clock,
      })
      .execute();
    forgetBrand(t.deps);
    return `/brand-assets/light-${sha256.slice(0, 16)}.png`;
  };
  const round = async () => {
    const n = createNotifications(t.deps, (e) => {
      throw e;
    });
    await n.worker.runOnce();
    n.close();
  };
  const failedCall = (id: string) => ({
    providerCallId: id,
    status: 'failed' as const,
    durationSeconds: 0,
    createdAt: clock - 60_000,
    insights: { ...NO_INSIGHTS, errorMessage: 'Carrier rejected the call' },
  });

  it('before a brand is saved: AGENCY_NAME’s default, MAIL_FROM’s name, the product’s blue', async () => {
    const client = await createClient(t.deps, { company_name: 'Bright Smile' });
    await storeCalls(t.deps, client, [failedCall('unbranded')]);
    await round();
    expect(smtp.messages).toHaveLength(1);
    const [mail] = smtp.messages;
    expect(mail.from).toBe('"Call Analytics" <alerts@agency.test>');
    expect(mail.replyTo).toBeNull();
    expect(mail.html).toContain('Call Analytics · Bright Smile');
    expect(mail.html).not.toContain('<img');
    expect(mail.text.split('\n')[0]).toBe('Call Analytics · Bright Smile');
  });

  it('an alert e-mail carries the saved name, logo, colours, footer, support, sender name and reply-to', async () => {
    const logoPath = await storeLogo();
    const brand = await saveBrand({
      name: 'Northwind Voice',
      primaryColor: '#ffd400',
      footerText: 'Northwind Voice Ltd · 1 Harbour Road, Leeds',
      supportEmail: 'help@northwind.example',
      supportPhone: '+44 113 496 0000',
      supportUrl: 'https://help.northwind.example',
      emailSenderName: 'Northwind Alerts',
      emailReplyTo: 'replies@northwind.example',
    });
    // Yellow: the guard keeps the fill, puts black text on it and darkens it for links.
    expect(brand.palette).toMatchObject({ primary: '#ffd400', primaryForeground: '#000000' });
    expect(brand.palette.primaryText).not.toBe('#ffd400');

    const client = await createClient(t.deps, { company_name: 'Bright Smile' });
    await storeCalls(t.deps, client, [failedCall('branded')]);
    await round();
    expect(smtp.messages).toHaveLength(1);
    const [mail] = smtp.messages;
    expect(mail.from).toBe('"Northwind Alerts" <alerts@agency.test>');
    expect(mail.replyTo).toBe('replies@northwind.example');
    const html = mail.html ?? '';
    expect(html).toContain(
      `<img src="https://calls.northwind.example${logoPath}" alt="Northwind Voice" height="32"`,
    );
    expect(html).toContain(' · Bright Smile');
    expect(html).toContain('background:#ffd400;color:#000000');
    expect(html).toContain(`color:${brand.palette.primaryText}`);
    expect(html).toContain('Northwind Voice Ltd · 1 Harbour Road, Leeds');
    expect(html).toContain('href="mailto:help@northwind.example"');
    expect(html).toContain('href="tel:+441134960000"');
    expect(html).toContain('href="https://help.northwind.example"');
    expect(html).not.toContain('Call Analytics');
    expect(mail.text.split('\n')[0]).toBe('Northwind Voice · Bright Smile');
    expect(mail.text).toContain('Northwind Voice Ltd · 1 Harbour Road, Leeds');
    expect(mail.text).toContain(
      'Help: help@northwind.example · +44 113 496 0000 · https://help.northwind.example',
    );
    expect(mail.text).not.toContain('Call Analytics');
  });

  it('an e-mail queued before a brand change goes out with the new brand, its subject too', async () => {
    const client = await createClient(t.deps);
    const queued: QueuedEmail = {
      to: client.email,
      subject: '3 calls yesterday',
      subjectNamesBrand: true,
      content: {
        heading: '3 calls yesterday',
        lines: ['Your calls yesterday.'],
        action: { label: 'Open the dashboard', url: 'https://calls.northwind.example/dashboard' },
        footer: 'Your digest is set in Settings › Notifications (daily, weekly or off).',
      },
    };
    await enqueue(
      t.deps.db,
      [
        {
          clientId: client.id,
          channel: 'email',
          topic: 'digest.daily',
          dedupeKey: 'brand-change',
          payload: queued,
        },
      ],
      clock,
    );
    await saveBrand({ name: 'Southwind Voice', emailSenderName: null, emailReplyTo: null });
    await round();
    expect(smtp.messages).toHaveLength(1);
    const [mail] = smtp.messages;
    expect(mail.subject).toBe('Southwind Voice: 3 calls yesterday');
    expect(mail.from).toBe('"Southwind Voice" <alerts@agency.test>');
    expect(mail.replyTo).toBeNull();
    expect(mail.html).toContain('alt="Southwind Voice"');
    expect(mail.text.split('\n')[0]).toBe('Southwind Voice');
  });

  it('a text names the agency', async () => {
    await saveBrand({ name: 'Northwind Voice' });
    const client = await createClient(t.deps, { phone_number: '+12125550143' });
    await saveNotificationPrefs(
      t.deps.db,
      client.id,
      {
        emailNotifications: false,
        smsNotifications: true,
        webhookNotifications: false,
        monthlyReports: false,
      },
      clock,
    );
    await markVerified(t.deps.db, client.id, '+12125550143', null, clock);
    await storeCalls(t.deps, client, [failedCall('sms-branded')]);
    await round();
    expect(twilio.messages).toHaveLength(1);
    expect(twilio.messages[0].body).toMatch(/^Northwind Voice: call from \+15550001111 needs attention/);
  });

  it('the monthly PDF prints the name and footer and embeds the logo; without a logo, no image', async () => {
    await saveBrand({ name: 'Northwind Voice', footerText: 'Northwind Voice Ltd · Leeds' });
    const client = await createClient(t.deps, { company_name: 'Bright Smile' });
    const cookie = await loginClient(t.app, client.email);
    const get = () =>
      t.app.inject({ method: 'GET', url: '/api/client/reports/monthly?month=2026-05', headers: { cookie } });
    const withLogo = await get();
    expect(withLogo.statusCode).toBe(200);
    const text = pdfText(withLogo.rawPayload);
    expect(text).toContain('Northwind Voice');
    expect(text).toContain('Northwind Voice Ltd · Leeds');
    expect(text).not.toContain('Call Analytics');
    expect(withLogo.rawPayload.toString('latin1')).toMatch(/\/Subtype \/Image/);

    await t.deps.db.deleteFrom('brand_assets').execute();
    forgetBrand(t.deps);
    const withoutLogo = await get();
    expect(pdfText(withoutLogo.rawPayload)).toContain('Northwind Voice');
    expect(withoutLogo.rawPayload.toString('latin1')).not.toMatch(/\/Subtype \/Image/);
  });

  it('a WebP or SVG logo is converted for the PDF (PDFKit reads PNG and JPEG only)', async () => {
    for (const [type, bytes] of [
      [
        'image/webp',
        await sharp({ create: { width: 200, height: 50, channels: 3, background: '#0a7' } })
          .webp()
          .toBuffer(),
      ],
      [
        'image/svg+xml',
        Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="50"><rect width="200" height="50" fill="#0a7"/></svg>',
        ),
      ],
    ] as const) {
      await t.deps.db.deleteFrom('brand_assets').execute();
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      await t.deps.db
        .insertInto('brand_assets')
        .values({
          variant: 'light',
          content_type: type,
          bytes,
          sha256,
          width: 200,
          height: 50,
          updated_at: clock,
        })
        .execute();
      forgetBrand(t.deps);
      const client = await createClient(t.deps);
      const cookie = await loginClient(t.app, client.email);
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/client/reports/monthly?month=2026-05',
        headers: { cookie },
      });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.toString('latin1')).toMatch(/\/Subtype \/Image/);
    }
  });
});
