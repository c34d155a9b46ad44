/**
 * A local SMTP server standing in for the agency's mail relay: a real SMTP listener
 * (the `smtp-server` package, plain SMTP with optional AUTH PLAIN/LOGIN) that keeps every message
 * it receives, parsed, and shows them on a small page (GET /) and as JSON (GET /_sim/messages).
 * The same page is also a client's webhook endpoint for the offline tour: POST /hooks/<anything>
 * is kept with its X-Signature and shown below the mail (JSON: GET /_sim/hooks).
 * Not a security boundary: bind it to loopback.
 */
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedEmail {
  id: number;
  messageId: string | null;
  from: string;
  /** Reply-To, when the message has one. */
  replyTo: string | null;
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  attachments: { filename: string; contentType: string; size: number }[];
  receivedAt: string;
  /** The message as it arrived, headers and all: what a DKIM check reads. */
  raw: string;
}

/** A webhook notification received at /hooks/…, as the client's endpoint would get it. */
export interface ReceivedHook {
  id: number;
  path: string;
  signature: string | null;
  webhookId: string | null;
  body: string;
  receivedAt: string;
}

export interface SmtpSim {
  /** smtp://127.0.0.1:PORT, for SMTP_URL. */
  smtpUrl: string;
  /** The page and JSON API. */
  url: string;
  messages: ReceivedEmail[];
  hooks: ReceivedHook[];
  /** Refuse the next N messages with this SMTP code (451 temporary, 550 permanent). */
  failNext(count: number, code: number): void;
  clear(): void;
  close(): Promise<void>;
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

function addresses(value: ParsedMail['to']): string[] {
  const list = Array.isArray(value) ? value : value ? [value] : [];
  return list.flatMap((a) => a.value.map((v) => v.address ?? '')).filter(Boolean);
}

export async function startSmtpSim(
  options: { smtpPort?: number; httpPort?: number; host?: string } = {},
): Promise<SmtpSim> {
  const host = options.host ?? '127.0.0.1';
  const messages: ReceivedEmail[] = [];
  const hooks: ReceivedHook[] = [];
  let failures = { count: 0, code: 451 };
  let seq = 0;

  const smtp = new SMTPServer({
    // The stand-in speaks plain SMTP: no STARTTLS (no certificate to trust), any credentials.
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    onAuth: (_auth, _session, callback) => callback(null, { user: 'sim' }),
    logger: false,
    onData(stream, _session, callback) {
      if (failures.count > 0) {
        failures.count--;
        stream.resume();
        const error = Object.assign(
          new Error(failures.code >= 500 ? 'Mailbox unavailable' : 'Try again later'),
          {
            responseCode: failures.code,
          },
        );
        stream.on('end', () => callback(error));
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      new Promise<Buffer>((resolve, reject) => {
        stream.on('end', () => resolve(Buffer.concat(chunks)));
        stream.on('error', reject);
      })
        .then(async (raw) => ({ raw, mail: await simpleParser(raw) }))
        .then(({ raw, mail }) => {
          messages.push({
            id: ++seq,
            messageId: mail.messageId ?? null,
            from: mail.from?.text ?? '',
            replyTo: mail.replyTo?.text ?? null,
            to: addresses(mail.to),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : null,
            attachments: mail.attachments.map((a) => ({
              filename: a.filename ?? '',
              contentType: a.contentType,
              size: a.size,
            })),
            receivedAt: new Date().toISOString(),
            raw: raw.toString('latin1'),
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => smtp.listen(options.smtpPort ?? 0, host, resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  let httpPort = 0;
  const http = createHttpServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sim');
    if (url.pathname.startsWith('/hooks/') && req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        hooks.push({
          id: hooks.length + 1,
          path: url.pathname,
          signature: (req.headers['x-signature'] as string | undefined) ?? null,
          webhookId: (req.headers['webhook-id'] as string | undefined) ?? null,
          body: Buffer.concat(chunks).toString('utf8').slice(0, 200_000),
          receivedAt: new Date().toISOString(),
        });
        if (hooks.length > 500) hooks.shift();
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"received":true}');
      });
      return;
    }
    if (url.pathname === '/_sim/hooks' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ hooks }));
    }
    if (url.pathname === '/_sim/messages' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ messages }));
    }
    if (url.pathname === '/_sim/messages' && req.method === 'DELETE') {
      messages.length = 0;
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"cleared":true}');
    }
    const one = /^\/messages\/(\d+)$/.exec(url.pathname);
    if (one) {
      const message = messages.find((m) => m.id === Number(one[1]));
      if (!message) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        return res.end('No such message');
      }
      // The message's own HTML, as a mail client would show it (sandboxed: no scripts).
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': 'sandbox',
      });
      return res.end(message.html ?? `<pre>${escapeHtml(message.text)}</pre>`);
    }
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(`<!doctype html><html lang="en"><head><title>Mail stand-in</title></head><body style="font-family:system-ui;margin:24px">
<h1>Mail received (${messages.length})</h1><ul>${[...messages]
        .reverse()
        .map(
          (m) =>
            `<li><a href="/messages/${m.id}">${escapeHtml(m.subject)}</a> — to ${escapeHtml(m.to.join(', '))}, ${escapeHtml(m.receivedAt)}</li>`,
        )
        .join('')}</ul>
<h2>Webhook notifications received (${hooks.length})</h2><p>Set a client's endpoint to <code>http://127.0.0.1:${httpPort}/hooks/anything</code>.</p><ul>${[
        ...hooks,
      ]
        .reverse()
        .map(
          (h) =>
            `<li><code>${escapeHtml(h.path)}</code>, ${escapeHtml(h.receivedAt)}, signature <code>${escapeHtml(h.signature ?? 'none')}</code><pre style="white-space:pre-wrap;max-height:12em;overflow:auto">${escapeHtml(h.body)}</pre></li>`,
        )
        .join('')}</ul></body></html>`);
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('Not found');
  });
  await new Promise<void>((resolve) => http.listen(options.httpPort ?? 0, host, resolve));
  httpPort = (http.address() as AddressInfo).port;

  return {
    smtpUrl: `smtp://${host}:${smtpPort}`,
    url: `http://${host}:${httpPort}`,
    messages,
    hooks,
    failNext(count, code) {
      failures = { count, code };
    },
    clear() {
      messages.length = 0;
      hooks.length = 0;
    },
    async close() {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
