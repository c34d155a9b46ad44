/**
 * E-mail over SMTP (nodemailer). SMTP_URL names the relay (smtp://user:pass@host:587, or
 * smtps:// for implicit TLS); MAIL_FROM the sender. Without SMTP_URL e-mail is off: messages
 * stay in the outbox, unsent, and the Notifications tab says so.
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
}

export interface Mailer {
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

export function createMailer(smtpUrl: string, from: string): Mailer {
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
  });
  const domain = /@([^>\s]+)/.exec(from)?.[1] ?? 'localhost';
  return {
    async send(email) {
      await transport.sendMail({
        from,
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
