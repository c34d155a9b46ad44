/**
 * E-mail over SMTP (nodemailer). SMTP_URL names the relay (smtp://user:pass@host:587, or
 * smtps:// for implicit TLS); MAIL_FROM the sender's address. Without SMTP_URL e-mail is off:
 * messages stay in the outbox, unsent, and the Notifications tab says so. With DKIM_PRIVATE_KEY
 * and DKIM_SELECTOR every message is DKIM-signed for MAIL_FROM's domain (nodemailer's `dkim`), so
 * mail from the agency's own domain passes DMARC (the records: brand/mail-dns.ts).
 */
import nodemailer from 'nodemailer';

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The outbox id, as Message-ID: a repeat after a crash is recognisable as the same message. */
  id: string;
  attachments?: { filename: string; contentBase64: string; contentType: string }[];
  /** The From header's display name (the agency's brand); the address is always MAIL_FROM's. */
  fromName?: string;
  replyTo?: string | null;
}

export interface DkimKey {
  selector: string;
  /** PEM. */
  privateKey: string;
}

/** MAIL_FROM's address: "Name <a@b>" or "a@b". */
export function mailFromAddress(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1]?.trim() ?? from.trim();
}

/** MAIL_FROM's display name, when it has one. */
export function mailFromName(from: string): string | null {
  const name = /^([^<]*)</
    .exec(from)?.[1]
    ?.trim()
    .replace(/^"(.*)"$/, '$1');
  return name ? name : null;
}

/** MAIL_FROM's domain: the one SPF, DKIM and DMARC are about. */
export function mailFromDomain(from: string): string {
  return mailFromAddress(from).split('@').pop()?.toLowerCase() ?? 'localhost';
}

export interface Mailer {
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

export function createMailer(smtpUrl: string, from: string, dkim: DkimKey | null = null): Mailer {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: url.username
      ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
      : undefined,
    // Certificates are checked; a relay on a private network with a self-signed one is accepted
    // only when the URL says so (`?tls=self-signed`).
    tls: { rejectUnauthorized: url.searchParams.get('tls') !== 'self-signed' },
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 15_000,
    ...(dkim
      ? {
          dkim: {
            domainName: mailFromDomain(from),
            keySelector: dkim.selector,
            privateKey: dkim.privateKey,
          },
        }
      : {}),
  });
  const address = mailFromAddress(from);
  const domain = mailFromDomain(from);
  const defaultName = mailFromName(from);
  return {
    async send(email) {
      const name = email.fromName ?? defaultName;
      await transport.sendMail({
        // nodemailer quotes and encodes the name, so a brand like `Smith & Co, "Voice"` is safe.
        from: name ? { name, address } : address,
        ...(email.replyTo ? { replyTo: email.replyTo } : {}),
        to: email.to,
        subject: email.subject,
        text: email.text,
        html: email.html,
        messageId: `<${email.id}@${domain}>`,
        attachments: email.attachments?.map((a) => ({
          filename: a.filename,
          content: Buffer.from(a.contentBase64, 'base64'),
          contentType: a.contentType,
        })),
      });
    },
    close: () => transport.close(),
  };
}
