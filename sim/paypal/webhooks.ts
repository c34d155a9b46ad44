/**
 * PayPal webhooks as PayPal signs them: the body is compact JSON, and
 * PAYPAL-TRANSMISSION-SIG = base64 RSA-SHA256 over `<transmission id>|<transmission time>|
 * <webhook id>|<CRC32 of the body, decimal>`, with the key behind PAYPAL-CERT-URL. Receivers ask
 * POST /v1/notifications/verify-webhook-signature, which recomputes that string from the event
 * they pass back, so a forged, altered or foreign message answers FAILURE.
 */
import { createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import {
  isoTime,
  newTransmissionId,
  type PaypalSimState,
  type Transmission,
  type WebhookEvent,
} from './state';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/**
 * An event as PayPal's servers write it, which JSON.parse then JSON.stringify does not give back:
 * slashes escaped (`https:\/\/api.paypal.com\/…`) and a space after each member's colon.
 * Slashes occur only inside strings in JSON, so escaping every one keeps the document valid.
 */
export function paypalJson(event: unknown): string {
  return JSON.stringify(event)
    .replace(/\//g, '\\/')
    .replace(/("(?:[^"\\]|\\.)*"):/g, '$1: ');
}

/**
 * The exact text of one member's value in a JSON object's text (top level only), or null:
 * what a server that verifies raw bytes reads, without parsing and re-serialising.
 */
export function rawMember(json: string, key: string): string | null {
  let depth = 0;
  let i = 0;
  const n = json.length;
  const skipString = (at: number) => {
    let j = at + 1;
    while (j < n && json[j] !== '"') j += json[j] === '\\' ? 2 : 1;
    return j + 1;
  };
  const skipValue = (at: number) => {
    let j = at;
    while (j < n && /\s/.test(json[j])) j++;
    const start = j;
    if (json[j] === '"') return { start, end: skipString(j) };
    if (json[j] === '{' || json[j] === '[') {
      let d = 0;
      for (; j < n; j++) {
        if (json[j] === '"') {
          j = skipString(j) - 1;
          continue;
        }
        if (json[j] === '{' || json[j] === '[') d++;
        else if (json[j] === '}' || json[j] === ']') {
          d--;
          if (d === 0) return { start, end: j + 1 };
        }
      }
      return null;
    }
    while (j < n && !/[,}\]\s]/.test(json[j])) j++;
    return { start, end: j };
  };
  for (; i < n; i++) {
    const c = json[i];
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === '"') {
      const end = skipString(i);
      const name = json.slice(i + 1, end - 1);
      let j = end;
      while (j < n && /\s/.test(json[j])) j++;
      if (depth === 1 && json[j] === ':') {
        const value = skipValue(j + 1);
        if (!value) return null;
        if (name === key) return json.slice(value.start, value.end);
        i = value.end - 1;
        continue;
      }
      i = end - 1;
    }
  }
  return null;
}

/** CRC-32 (IEEE), the checksum PayPal puts in the signed string. */
export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export interface WebhookTarget {
  url: string;
  webhookId: string;
}

export interface VerifyRequest {
  auth_algo?: unknown;
  cert_url?: unknown;
  transmission_id?: unknown;
  transmission_sig?: unknown;
  transmission_time?: unknown;
  webhook_id?: unknown;
  webhook_event?: unknown;
}

export class PaypalWebhooks {
  target: WebhookTarget | null = null;
  private queue: Promise<void> = Promise.resolve();
  private readonly privateKey: KeyObject;
  readonly publicKeyPem: string;

  constructor(
    private readonly state: PaypalSimState,
    private readonly nowMs: () => number,
    private readonly certUrl: () => string,
  ) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.privateKey = privateKey;
    this.publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  }

  record(event: WebhookEvent): void {
    this.state.events.set(event.id, event);
  }

  enqueue(event: WebhookEvent): void {
    const target = this.target;
    if (!target) return;
    this.queue = this.queue.then(() => this.deliver(event, target).then(() => undefined));
  }

  resend(eventId: string): Promise<Transmission> | null {
    const event = this.state.events.get(eventId);
    const target = this.target;
    if (!event || !target) return null;
    const result = this.queue.then(() => this.deliver(event, target));
    this.queue = result.then(() => undefined);
    return result;
  }

  async flush(): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.queue;
      await current;
    } while (current !== this.queue);
  }

  private signatureBase(transmissionId: string, time: string, webhookId: string, body: string): string {
    return `${transmissionId}|${time}|${webhookId}|${crc32(body)}`;
  }

  private async deliver(event: WebhookEvent, target: WebhookTarget): Promise<Transmission> {
    const body = paypalJson(event);
    const transmission: Transmission = {
      id: newTransmissionId(),
      eventId: event.id,
      time: isoTime(Date.now()),
      webhookId: target.webhookId,
      url: target.url,
      status: null,
      ok: false,
      error: null,
    };
    const signature = sign(
      'sha256',
      Buffer.from(this.signatureBase(transmission.id, transmission.time, target.webhookId, body)),
      this.privateKey,
    ).toString('base64');
    try {
      const res = await fetch(target.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'PayPal/AUHD-214.0-58844633',
          'paypal-auth-algo': 'SHA256withRSA',
          'paypal-cert-url': this.certUrl(),
          'paypal-auth-version': 'v2',
          'paypal-transmission-id': transmission.id,
          'paypal-transmission-sig': signature,
          'paypal-transmission-time': transmission.time,
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer().catch(() => undefined);
      transmission.status = res.status;
      transmission.ok = res.ok;
    } catch (err) {
      transmission.error = err instanceof Error ? err.message : String(err);
    }
    this.state.transmissions.push(transmission);
    return transmission;
  }

  /**
   * The verify-webhook-signature decision. Like PayPal, the CRC32 is over the webhook_event exactly
   * as the request carries it (`rawEvent`, its text in the request body): a caller that parsed
   * the delivery and serialised it again sends other bytes, and the signature no longer matches.
   */
  verify(req: VerifyRequest, rawEvent: string | null): 'SUCCESS' | 'FAILURE' {
    const { transmission_id, transmission_sig, transmission_time, webhook_id, webhook_event, auth_algo } =
      req;
    if (
      typeof transmission_id !== 'string' ||
      typeof transmission_sig !== 'string' ||
      typeof transmission_time !== 'string' ||
      typeof webhook_id !== 'string' ||
      typeof webhook_event !== 'object' ||
      webhook_event === null ||
      auth_algo !== 'SHA256withRSA'
    ) {
      return 'FAILURE';
    }
    if (rawEvent === null) return 'FAILURE';
    const base = this.signatureBase(transmission_id, transmission_time, webhook_id, rawEvent);
    try {
      const ok = verify(
        'sha256',
        Buffer.from(base),
        createPublicKey(this.publicKeyPem),
        Buffer.from(transmission_sig, 'base64'),
      );
      return ok ? 'SUCCESS' : 'FAILURE';
    } catch {
      return 'FAILURE';
    }
  }

  /** For the events the stand-in raises: `id` WH-…, links to itself like PayPal's. */
  now(): string {
    return isoTime(this.nowMs());
  }
}
