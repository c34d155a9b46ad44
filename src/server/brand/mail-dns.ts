/**
 * Mail from the agency's own domain: the SPF, DKIM and DMARC records MAIL_FROM's
 * domain needs for the product's mail to be delivered in its name, and a check of what DNS holds.
 *
 * - SPF names the relay (SMTP_URL's host) when that says something: a known provider's include,
 *   the relay's public address, or `a:<host>`; otherwise a placeholder the admin replaces.
 * - DKIM: the public half of DKIM_PRIVATE_KEY at `<DKIM_SELECTOR>._domainkey.<domain>`.
 * - DMARC: a monitoring policy (p=none) reporting to ADMIN_EMAIL; any published policy counts.
 *
 * Look-ups go through node:dns's Resolver (DNS_SERVERS when set), one try of 3 s each, in
 * parallel. A resolver that does not answer gives "unknown", never an error: the admin's page
 * must not break because DNS is slow. The route caps how often an admin may ask.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { MailDnsAnswer, MailDnsRecord } from '../../contract/brand-mail-dns';
import type { Config } from '../config';
import { mailFromDomain } from '../providers/messaging/mailer';

export const DNS_TIMEOUT_MS = 3_000;

/** Relays whose SPF is an include the provider publishes (their documented values). */
const KNOWN_RELAYS: [RegExp, string][] = [
  [/(^|\.)sendgrid\.net$/, 'include:sendgrid.net'],
  [/(^|\.)mailgun\.org$/, 'include:mailgun.org'],
  [/\.amazonaws\.com$/, 'include:amazonses.com'],
  [/(^|\.)postmarkapp\.com$/, 'include:spf.mtasv.net'],
  [/(^|\.)(gmail|google)\.com$/, 'include:_spf.google.com'],
  [/(^|\.)(office365|outlook)\.com$/, 'include:spf.protection.outlook.com'],
];

export const SPF_PLACEHOLDER = 'include:YOUR-MAIL-PROVIDER';

function isPrivateAddress(ip: string): boolean {
  return (
    /^(10\.|127\.|192\.168\.|169\.254\.|172\.(1[6-9]|2\d|3[01])\.)/.test(ip) ||
    ip === '::1' ||
    /^f[cd]/i.test(ip) ||
    /^fe80:/i.test(ip)
  );
}

/** The SPF mechanism that authorises the relay, or the placeholder when the relay says nothing. */
export function spfMechanism(smtpUrl: string | null): string {
  if (!smtpUrl) return SPF_PLACEHOLDER;
  const host = new URL(smtpUrl).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const version = isIP(host);
  if (version) return isPrivateAddress(host) ? SPF_PLACEHOLDER : `ip${version}:${host}`;
  const known = KNOWN_RELAYS.find(([pattern]) => pattern.test(host));
  if (known) return known[1];
  // A name only the local network knows (a container, a test relay) means nothing to the world.
  if (!host.includes('.') || /\.(local|localhost|internal|test|lan)$/.test(host)) return SPF_PLACEHOLDER;
  return `a:${host}`;
}

/** The DKIM record's value for the configured key: its public half, DER in base64. */
export function dkimRecordValue(privateKeyPem: string): string {
  const der = createPublicKey(createPrivateKey(privateKeyPem)).export({ type: 'spki', format: 'der' });
  return `v=DKIM1; k=rsa; p=${der.toString('base64')}`;
}

interface Lookup {
  records: string[];
  /** Set when DNS did not answer: the error code. */
  failed: string | null;
}

async function lookupTxt(resolver: Resolver, name: string): Promise<Lookup> {
  try {
    const answers = await resolver.resolveTxt(name);
    // A long TXT record comes as several strings: they are one value.
    return { records: answers.map((strings) => strings.join('')), failed: null };
  } catch (error) {
    // The resolver's errors carry a DNS code (ENOTFOUND, ENODATA, …).
    const code = (error as { code?: string }).code ?? 'ERROR';
    // No such name, or no TXT at it: an answer, and it says "missing".
    if (code === 'ENOTFOUND' || code === 'ENODATA') return { records: [], failed: null };
    return { records: [], failed: code };
  }
}

/** "v=DKIM1; k=rsa; p=…" as tag → value (RFC 6376 §3.2; DMARC uses the same syntax). */
function tags(record: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of record.split(';')) {
    const at = part.indexOf('=');
    if (at > 0) out.set(part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim());
  }
  return out;
}
const normalise = (value: string) => value.replace(/\s+/g, ' ').trim().toLowerCase();

function spfRecord(domain: string, config: Config, lookup: Lookup | null): MailDnsRecord {
  const mechanism = spfMechanism(config.mail.smtpUrl);
  const expected = `v=spf1 ${mechanism} ~all`;
  const placeholder = mechanism === SPF_PLACEHOLDER;
  const base = { purpose: 'SPF' as const, type: 'TXT' as const, name: domain, expected };
  const advice = placeholder
    ? 'Replace YOUR-MAIL-PROVIDER with what your mail provider tells you to include, or merge it into your SPF record.'
    : 'Publish it, or add the mechanism to your existing SPF record: a domain may have only one.';
  if (!lookup) return { ...base, found: [], status: 'unknown', note: advice };
  if (lookup.failed) return { ...base, found: [], status: 'unknown', note: dnsSilent(lookup.failed) };
  const found = lookup.records.filter((r) => /^v=spf1(\s|$)/i.test(r.trim()));
  if (found.length === 0) return { ...base, found, status: 'missing', note: advice };
  if (found.length > 1)
    return {
      ...base,
      found,
      status: 'different',
      note: 'The domain has more than one SPF record, which makes SPF fail: merge them into one.',
    };
  if (placeholder)
    return {
      ...base,
      found,
      status: 'present',
      note: 'An SPF record is published; check that it names the provider that sends your mail.',
    };
  const names = normalise(found[0]).split(' ').includes(mechanism.toLowerCase());
  return names
    ? { ...base, found, status: 'present', note: 'Mail from the relay passes SPF.' }
    : {
        ...base,
        found,
        status: 'different',
        note: `The SPF record does not name the relay: add ${mechanism}.`,
      };
}

function dkimRecord(domain: string, config: Config, lookup: Lookup | null): MailDnsRecord {
  const dkim = config.mail.dkim;
  if (!dkim)
    return {
      purpose: 'DKIM',
      type: 'TXT',
      name: `<selector>._domainkey.${domain}`,
      expected: null,
      found: [],
      status: 'unknown',
      note: 'Mail is not DKIM-signed: set DKIM_SELECTOR and DKIM_PRIVATE_KEY, then publish the record shown here.',
    };
  const expected = dkimRecordValue(dkim.privateKey);
  const base = {
    purpose: 'DKIM' as const,
    type: 'TXT' as const,
    name: `${dkim.selector}._domainkey.${domain}`,
    expected,
  };
  const advice = 'Publish it so receivers can check the signature every e-mail carries.';
  if (!lookup) return { ...base, found: [], status: 'unknown', note: advice };
  if (lookup.failed) return { ...base, found: [], status: 'unknown', note: dnsSilent(lookup.failed) };
  const found = lookup.records;
  if (found.length === 0) return { ...base, found, status: 'missing', note: advice };
  const key = (record: string) => (tags(record).get('p') ?? '').replace(/\s+/g, '');
  return found.some((r) => key(r) === key(expected))
    ? { ...base, found, status: 'present', note: 'Receivers can check the signature.' }
    : {
        ...base,
        found,
        status: 'different',
        note: 'The published key is not the one mail is signed with: publish the value shown.',
      };
}

function dmarcRecord(domain: string, config: Config, lookup: Lookup | null): MailDnsRecord {
  const reports = config.mail.adminEmail ?? `dmarc-reports@${domain}`;
  const base = {
    purpose: 'DMARC' as const,
    type: 'TXT' as const,
    name: `_dmarc.${domain}`,
    expected: `v=DMARC1; p=none; rua=mailto:${reports}`,
  };
  const advice = 'Publish it to be told who sends mail in your name; tighten p= once the reports look right.';
  if (!lookup) return { ...base, found: [], status: 'unknown', note: advice };
  if (lookup.failed) return { ...base, found: [], status: 'unknown', note: dnsSilent(lookup.failed) };
  const found = lookup.records.filter((r) => /^v=DMARC1\s*(;|$)/i.test(r.trim()));
  if (found.length === 0) return { ...base, found, status: 'missing', note: advice };
  if (found.length > 1 || !tags(found[0]).has('p'))
    return {
      ...base,
      found,
      status: 'different',
      note: 'The DMARC record is not valid (one record, with a p= policy): publish the value shown.',
    };
  // Any policy the agency chose (none, quarantine, reject) is its own business.
  return { ...base, found, status: 'present', note: 'A DMARC policy is published.' };
}

const dnsSilent = (code: string) => `DNS did not answer (${code}); try again in a minute.`;

/** The records MAIL_FROM's domain needs and, when `check`, what DNS holds for each. */
export async function mailDnsRecords(config: Config, check: boolean): Promise<MailDnsAnswer> {
  const domain = mailFromDomain(config.mail.from);
  // MAIL_FROM at localhost (the default) or a bare host: there is no public domain to ask about.
  const ask = check && domain.includes('.');
  let lookups: [Lookup | null, Lookup | null, Lookup | null] = [null, null, null];
  if (ask) {
    const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: 1 });
    if (config.dnsServers) resolver.setServers(config.dnsServers);
    const dkim = config.mail.dkim;
    lookups = await Promise.all([
      lookupTxt(resolver, domain),
      dkim ? lookupTxt(resolver, `${dkim.selector}._domainkey.${domain}`) : Promise.resolve(null),
      lookupTxt(resolver, `_dmarc.${domain}`),
    ]);
  }
  const records = [
    spfRecord(domain, config, lookups[0]),
    dkimRecord(domain, config, lookups[1]),
    dmarcRecord(domain, config, lookups[2]),
  ];
  if (check && !ask)
    return {
      domain,
      checked: true,
      records: records.map((r) => ({
        ...r,
        note: `${domain} is not a public domain: set MAIL_FROM to an address at your own domain, then check again.`,
      })),
    };
  return { domain, checked: ask, records };
}
