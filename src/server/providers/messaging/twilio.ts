/**
 * Texts through Twilio's Messages API (2010-04-01): a form-encoded POST to
 * /2010-04-01/Accounts/{AccountSid}/Messages.json with To, From and Body, HTTP Basic auth with the
 * account SID and auth token. Twilio answers 201 with the Message resource, or an error body
 * {code, message, more_info, status}.
 */

export interface TwilioConfig {
  accountSid: string;
  authToken: string;
  from: string;
  apiUrl: string;
}

export class TwilioError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | null,
    message: string,
  ) {
    super(message);
  }
  /** Twilio's 4xx (bad number, unsubscribed recipient…) will fail again; 429 and 5xx may not. */
  get permanent(): boolean {
    return this.status >= 400 && this.status < 500 && this.status !== 429;
  }
}

export interface TwilioClient {
  sendSms(to: string, body: string): Promise<{ sid: string; status: string }>;
}

export function createTwilioClient(config: TwilioConfig, fetchImpl: typeof fetch = fetch): TwilioClient {
  const base = config.apiUrl.replace(/\/$/, '');
  const auth = `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64')}`;
  return {
    async sendSms(to, body) {
      const res = await fetchImpl(
        `${base}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`,
        {
          method: 'POST',
          headers: {
            authorization: auth,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: new URLSearchParams({ To: to, From: config.from, Body: body }),
          signal: AbortSignal.timeout(15_000),
        },
      );
      // res.json() is any: Twilio's answer is read loosely, each field type-checked where it is used.
      const json = (await res.json().catch(() => null)) as Record<string, unknown> | null;
      if (res.status !== 201 && res.status !== 200)
        throw new TwilioError(
          res.status,
          typeof json?.code === 'number' ? json.code : null,
          typeof json?.message === 'string' ? json.message : `Twilio answered ${res.status}`,
        );
      return { sid: String(json?.sid ?? ''), status: String(json?.status ?? '') };
    },
  };
}
