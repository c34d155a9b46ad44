/**
 * Mail from the agency's own domain: GET /api/admin/brand/dns answers the SPF, DKIM
 * and DMARC records MAIL_FROM's domain needs and, with `check`, what DNS says about each.
 */
import { z } from 'zod';

export const MAIL_DNS_PURPOSES = ['SPF', 'DKIM', 'DMARC'] as const;
export const MAIL_DNS_STATUSES = ['present', 'missing', 'different', 'unknown'] as const;
export type MailDnsStatus = (typeof MAIL_DNS_STATUSES)[number];

/** `check=false` shows the records without asking DNS (the card's first view). */
export const MailDnsQuery = z.object({
  check: z.enum(['true', 'false'], { message: 'check must be true or false' }).optional(),
});

export const MailDnsRecord = z.object({
  purpose: z.enum(MAIL_DNS_PURPOSES),
  type: z.literal('TXT'),
  /** The full name to publish the record at. */
  name: z.string(),
  /** The value to publish; null when it cannot be given (DKIM signing is off). */
  expected: z.string().nullable(),
  /** The TXT records DNS answered at `name` (of this kind), each joined from its strings. */
  found: z.array(z.string()),
  status: z.enum(MAIL_DNS_STATUSES),
  /** What the admin should know or do, in a sentence. */
  note: z.string(),
});
export type MailDnsRecord = z.infer<typeof MailDnsRecord>;

export const MailDnsAnswer = z.object({
  domain: z.string(),
  /**
   * True when a check was asked for: each status is DNS's answer, or "unknown" when DNS could not
   * be asked (it did not answer, or MAIL_FROM is not at a public domain; the note says which).
   */
  checked: z.boolean(),
  records: z.array(MailDnsRecord),
});
export type MailDnsAnswer = z.infer<typeof MailDnsAnswer>;

export const MAIL_DNS_TEXTS = {
  heading: 'Mail from your domain',
  intro:
    'Publish these DNS records at your domain so mail the product sends in your name is delivered and not marked as spam.',
  status: {
    present: 'Found',
    missing: 'Not found',
    different: 'Different',
    unknown: 'Unknown',
  } satisfies Record<MailDnsStatus, string>,
} as const;
