/**
 * Mail from the agency's domain: with DKIM_SELECTOR and DKIM_PRIVATE_KEY every e-mail
 * leaves DKIM-signed, and the signature verifies (mailauth) against the record GET
 * /api/admin/brand/dns tells the admin to publish, served by the DNS stand-in (sim/dns). The
 * check says present / missing / different per record, "unknown" when DNS does not answer (never
 * a 500), and is capped per admin.
 */
import { generateKeyPairSync } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DnsSim, startDnsSim } from '../../sim/dns';
import { type SmtpSim, startSmtpSim } from '../../sim/smtp';
import { spfMechanism } from '../../src/server/brand/mail-dns';
import { createNotifications } from '../../src/server/notifications';
import { NO_INSIGHTS } from '../../src/server/providers/voice/types';
import { storeCalls } from '../helpers/calls';
import { createAdminUser, createClient, loginAdmin } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const clock = Date.UTC(2026, 5, 10, 19, 0);
const DOMAIN = 'northwind.example';
const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

interface DnsRecordAnswer {
  purpose: string;
  name: string;
  expected: string | null;
  found: string[];
  status: string;
  note: string;
}

describe(`mail from the agency's domain: DKIM and DNS (${TEST_DB})`, () => {
  let t: TestApp;
  let smtp: SmtpSim;
  let dns: DnsSim;
  let admin: string;
  beforeAll(async () => {
    smtp = await startSmtpSim();
    dns = await startDnsSim();
    t = await createTestApp({
      now: () => clock,
      env: {
        SMTP_URL: smtp.smtpUrl,
        MAIL_FROM: `Northwind <alerts@${DOMAIN}>`,
        ADMIN_EMAIL: `ops@${DOMAIN}`,
        // One line, as many environments hold it.
        DKIM_PRIVATE_KEY: privateKey.trim().replace(/\n/g, '\\n'),
        DKIM_SELECTOR: 'nw2026',
        DNS_SERVERS: dns.address,
        CAP_DNS_CHECKS_PER_HOUR: '6',
      },
    });
    const a = await createAdminUser(t.deps);
    admin = await loginAdmin(t.app, a.username, a.password);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
    await dns.close();
  });
  beforeEach(() => {
    smtp.clear();
    dns.clear();
  });

  const records = async (query = '') => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/admin/brand/dns${query}`,
      headers: { cookie: admin },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { domain: string; checked: boolean; records: DnsRecordAnswer[] };
    const by = (purpose: string) => body.records.find((r) => r.purpose === purpose) as DnsRecordAnswer;
    return { body, spf: by('SPF'), dkim: by('DKIM'), dmarc: by('DMARC') };
  };

  it('lists the three records without asking DNS when check=false', async () => {
    const { body, spf, dkim, dmarc } = await records('?check=false');
    expect(body).toMatchObject({ domain: DOMAIN, checked: false });
    // The stand-in relay listens on 127.0.0.1: the world cannot authorise it, so a placeholder.
    expect(spf).toMatchObject({ name: DOMAIN, expected: 'v=spf1 include:YOUR-MAIL-PROVIDER ~all' });
    expect(dkim.name).toBe(`nw2026._domainkey.${DOMAIN}`);
    expect(dkim.expected).toMatch(/^v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA/);
    expect(dmarc).toMatchObject({
      name: `_dmarc.${DOMAIN}`,
      expected: `v=DMARC1; p=none; rua=mailto:ops@${DOMAIN}`,
    });
    expect(body.records.map((r) => r.status)).toEqual(['unknown', 'unknown', 'unknown']);
    expect(dns.questions).toEqual([]);
  });

  it('signs every e-mail with DKIM, and the signature verifies against the published record', async () => {
    const { dkim } = await records('?check=false');
    dns.setTxt(dkim.name, [dkim.expected ?? '']);
    const client = await createClient(t.deps);
    await storeCalls(t.deps, client, [
      {
        providerCallId: 'dkim-signed',
        status: 'failed',
        durationSeconds: 0,
        createdAt: clock - 60_000,
        insights: NO_INSIGHTS,
      },
    ]);
    const n = createNotifications(t.deps, (e) => {
      throw e;
    });
    await n.worker.runOnce();
    n.close();
    expect(smtp.messages).toHaveLength(1);
    const raw = smtp.messages[0].raw;
    expect(raw).toMatch(/^DKIM-Signature: [^\n]*\bd=northwind\.example;\s+q=dns\/txt; s=nw2026;/);
    // mailauth asks "DNS" through this resolver: the stand-in, holding what the admin published.
    const resolver = new Resolver({ timeout: 3000, tries: 1 });
    resolver.setServers([dns.address]);
    const result = await dkimVerify(Buffer.from(raw, 'latin1'), {
      resolver: (name: string, type: string) =>
        type === 'TXT' ? resolver.resolveTxt(name) : Promise.reject(new Error(`no ${type} here`)),
    });
    expect(result.results).toHaveLength(1);
    expect(result.results[0]).toMatchObject({
      signingDomain: DOMAIN,
      selector: 'nw2026',
      status: { result: 'pass' },
    });

    // A key that is not the published one does not verify: the test can fail.
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({
      type: 'spki',
      format: 'der',
    });
    dns.setTxt(dkim.name, [`v=DKIM1; k=rsa; p=${other.toString('base64')}`]);
    const wrong = await dkimVerify(Buffer.from(raw, 'latin1'), {
      resolver: (name: string) => resolver.resolveTxt(name),
    });
    expect(wrong.results[0].status.result).not.toBe('pass');
  });

  it('says which records are present, missing or different', async () => {
    const { dkim } = await records('?check=false');
    // Nothing published: all missing.
    let got = await records();
    expect(got.body.checked).toBe(true);
    expect(got.body.records.map((r) => r.status)).toEqual(['missing', 'missing', 'missing']);
    expect(dns.questions).toEqual(
      expect.arrayContaining([DOMAIN, `nw2026._domainkey.${DOMAIN}`, `_dmarc.${DOMAIN}`]),
    );

    // Published as shown (DKIM's long value split into 255-byte strings by the stand-in), a
    // stricter DMARC policy than suggested, and an unrelated TXT beside the SPF record.
    dns.setTxt(DOMAIN, ['google-site-verification=abc', 'v=spf1 include:spf.example.net ~all']);
    dns.setTxt(dkim.name, [dkim.expected ?? '']);
    dns.setTxt(`_dmarc.${DOMAIN}`, ['v=DMARC1; p=quarantine; rua=mailto:dmarc@northwind.example']);
    got = await records();
    expect(got.spf).toMatchObject({ status: 'present', found: ['v=spf1 include:spf.example.net ~all'] });
    expect(got.dkim).toMatchObject({ status: 'present', found: [dkim.expected] });
    expect(got.dmarc.status).toBe('present');

    // Another key at the selector, two SPF records, a DMARC record without a policy.
    dns.setTxt(DOMAIN, ['v=spf1 -all', 'v=spf1 include:spf.example.net ~all']);
    dns.setTxt(dkim.name, ['v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAother']);
    dns.setTxt(`_dmarc.${DOMAIN}`, ['v=DMARC1; rua=mailto:dmarc@northwind.example']);
    got = await records();
    expect(got.body.records.map((r) => r.status)).toEqual(['different', 'different', 'different']);
    expect(got.spf.note).toMatch(/more than one SPF record/);
  });

  it('answers "unknown", not an error, when DNS fails or does not answer', async () => {
    dns.mode('servfail');
    let got = await records();
    expect(got.body.records.map((r) => r.status)).toEqual(['unknown', 'unknown', 'unknown']);
    expect(got.spf.note).toMatch(/DNS did not answer \(ESERVFAIL\)/);
    dns.mode('silent');
    got = await records();
    expect(got.body.records.map((r) => r.status)).toEqual(['unknown', 'unknown', 'unknown']);
    expect(got.dmarc.note).toMatch(/DNS did not answer \(ETIMEOUT\)/);
  }, 20_000);

  it('caps the checks per admin (429 with Retry-After); listing without a check is not capped', async () => {
    const other = await createAdminUser(t.deps);
    const cookie = await loginAdmin(t.app, other.username, other.password);
    const ask = (query = '') =>
      t.app.inject({ method: 'GET', url: `/api/admin/brand/dns${query}`, headers: { cookie } });
    for (let i = 0; i < 6; i++) expect((await ask()).statusCode).toBe(200);
    const refused = await ask();
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await ask('?check=false')).statusCode).toBe(200);
    expect((await ask('?check=maybe')).statusCode).toBe(400);
    // Signed out: not an admin.
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/brand/dns' })).statusCode).toBe(401);
  });

  it('names the relay in SPF where that means something', () => {
    expect(spfMechanism('smtp://apikey:x@smtp.sendgrid.net:587')).toBe('include:sendgrid.net');
    expect(spfMechanism('smtps://u:p@email-smtp.eu-west-1.amazonaws.com')).toBe('include:amazonses.com');
    expect(spfMechanism('smtp://mail.northwind.example:25')).toBe('a:mail.northwind.example');
    expect(spfMechanism('smtp://203.0.113.7:25')).toBe('ip4:203.0.113.7');
    expect(spfMechanism('smtp://10.0.0.5:25')).toBe('include:YOUR-MAIL-PROVIDER');
    expect(spfMechanism('smtp://mailhog:1025')).toBe('include:YOUR-MAIL-PROVIDER');
    expect(spfMechanism(null)).toBe('include:YOUR-MAIL-PROVIDER');
  });
});
