/**
 * A local stand-in for Twilio's Messages API (2010-04-01), as the product uses it: POST
 * /2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded To, From, Body, HTTP Basic auth
 * with the account SID and auth token; 201 with the Message resource, or Twilio's error body
 * {code, message, more_info, status}. Sent texts are kept (GET /_sim/messages). Loopback only.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SentText {
  sid: string;
  to: string;
  from: string;
  body: string;
  dateCreated: string;
}

export interface TwilioSim {
  url: string;
  accountSid: string;
  authToken: string;
  messages: SentText[];
  /** Answer the next N sends with this HTTP status and Twilio error code. */
  failNext(count: number, status: number, code: number): void;
  clear(): void;
  close(): Promise<void>;
}

const E164 = /^\+[1-9]\d{6,14}$/;
const rfc2822 = (d: Date) => d.toUTCString().replace('GMT', '+0000');

function twilioError(res: ServerResponse, status: number, code: number, message: string) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startTwilioSim(
  options: { port?: number; host?: string; accountSid?: string; authToken?: string } = {},
): Promise<TwilioSim> {
  const accountSid = options.accountSid ?? `AC${randomBytes(16).toString('hex')}`;
  const authToken = options.authToken ?? randomBytes(16).toString('hex');
  const messages: SentText[] = [];
  let failures = { count: 0, status: 500, code: 20500 };
  const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://sim');
    if (url.pathname === '/_sim/messages') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ messages }));
    }
    const m = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(url.pathname);
    if (!m || req.method !== 'POST')
      return twilioError(res, 404, 20404, 'The requested resource was not found');
    if (req.headers.authorization !== expectedAuth || decodeURIComponent(m[1]) !== accountSid)
      return twilioError(res, 401, 20003, 'Authenticate');
    const form = new URLSearchParams(await readBody(req));
    if (failures.count > 0) {
      failures.count--;
      return twilioError(res, failures.status, failures.code, 'Simulated failure');
    }
    const to = form.get('To') ?? '';
    const from = form.get('From') ?? '';
    const body = form.get('Body') ?? '';
    if (!E164.test(to))
      return twilioError(res, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    if (!from) return twilioError(res, 400, 21603, "The 'From' phone number is required.");
    if (!body) return twilioError(res, 400, 21602, 'Message body is required.');
    if (body.length > 1600)
      return twilioError(res, 400, 21617, 'The concatenated message body exceeds the 1600 character limit.');
    const now = new Date();
    const sid = `SM${randomBytes(16).toString('hex')}`;
    messages.push({ sid, to, from, body, dateCreated: now.toISOString() });
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        account_sid: accountSid,
        api_version: '2010-04-01',
        body,
        date_created: rfc2822(now),
        date_sent: null,
        date_updated: rfc2822(now),
        direction: 'outbound-api',
        error_code: null,
        error_message: null,
        from,
        messaging_service_sid: null,
        num_media: '0',
        num_segments: String(Math.ceil(body.length / 153) || 1),
        price: null,
        price_unit: 'USD',
        sid,
        status: 'queued',
        subresource_uris: { media: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}/Media.json` },
        to,
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
      }),
    );
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    accountSid,
    authToken,
    messages,
    failNext(count, status, code) {
      failures = { count, status, code };
    },
    clear() {
      messages.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
