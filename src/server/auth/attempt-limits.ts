/**
 * Limits on guessing secrets (logins, the current password when changing it), after OWASP's
 * authentication guidance. Every attempt is counted before the password is checked, atomically in
 * the database, so concurrent guesses cannot all slip under a limit. Unknown browsers are limited
 * per account and address, per address, and per account across addresses (with a pause that
 * doubles after each further failure); a browser that signed in to the account before carries a
 * device cookie and is limited on its own, so an attacker spraying from the same address (a shared
 * office or carrier NAT) cannot lock the account's owner out.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../context';
import { safeEqual } from '../crypto/secrets';
import { HttpError } from '../http/errors';

export const ATTEMPT_WINDOW_MS = 15 * 60 * 1000;
export const LIMITS = {
  perAccountAndAddress: 10,
  perAddress: 100,
  perAccount: 50,
  perDevice: 10,
  /** Account-wide failures after which every further attempt waits 1 s, 2 s, 4 s, … */
  pauseAfter: 10,
} as const;
const MAX_PAUSE_MS = ATTEMPT_WINDOW_MS;
const DEVICE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

export const TOO_MANY_ATTEMPTS = 'Too many failed login attempts. Please wait 15 minutes and try again.';

export type AttemptScope = 'client' | 'admin' | 'password';

export interface Attempt {
  /** The secret was right: this attempt and the account's failures stop counting. */
  succeeded(): Promise<void>;
}

function tooMany(reply: FastifyReply, retryAfterMs: number): HttpError {
  reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
  return new HttpError(429, TOO_MANY_ATTEMPTS);
}

export function createAttemptLimits(deps: Pick<AppDeps, 'rateCounters' | 'config' | 'now'>) {
  const { rateCounters, now } = deps;
  const sign = (text: string) => createHmac('sha256', deps.config.appSecret).update(text).digest('base64url');
  const cookieName = (scope: AttemptScope) => `cap_device_${scope}`;

  /** The device id of a cookie this server issued for this account, or null. */
  function trustedDevice(request: FastifyRequest, scope: AttemptScope, account: string): string | null {
    const value = request.cookies[cookieName(scope)];
    const [nonce, signature] = (value ?? '').split('.');
    if (!nonce || !signature) return null;
    return safeEqual(signature, sign(`${scope}:${account}:${nonce}`)) ? nonce : null;
  }

  return {
    /** Counts an attempt before the secret is checked; throws 429 (with Retry-After) over a limit. */
    async begin(
      request: FastifyRequest,
      reply: FastifyReply,
      scope: AttemptScope,
      account: string,
    ): Promise<Attempt> {
      const device = scope === 'password' ? null : trustedDevice(request, scope, account);
      const accountKey = `attempt:${scope}:account:${account}`;
      const keys: [string, number][] = device
        ? [[`attempt:${scope}:device:${device}`, LIMITS.perDevice]]
        : [
            [`attempt:${scope}:account-address:${account}:${request.ip}`, LIMITS.perAccountAndAddress],
            [`attempt:address:${request.ip}`, LIMITS.perAddress],
            [accountKey, LIMITS.perAccount],
          ];
      if (!device) {
        const { count, lastAt } = await rateCounters.state(accountKey, ATTEMPT_WINDOW_MS);
        const failures = Math.floor(count);
        if (failures > LIMITS.pauseAfter) {
          const pause = Math.min(MAX_PAUSE_MS, 1000 * 2 ** (failures - LIMITS.pauseAfter - 1));
          const waited = now() - lastAt;
          if (waited < pause) throw tooMany(reply, pause - waited);
        }
      }
      const counts = await Promise.all(keys.map(([key]) => rateCounters.hit(key, ATTEMPT_WINDOW_MS)));
      if (counts.some((count, i) => count > keys[i][1])) {
        // Refused before any check: it must not make the wait longer for whoever comes next.
        await Promise.all(keys.map(([key]) => rateCounters.release(key, ATTEMPT_WINDOW_MS)));
        throw tooMany(reply, ATTEMPT_WINDOW_MS);
      }
      return {
        async succeeded() {
          // The owner is in: the account's failures are forgiven, and the address keeps its budget.
          const [first, address] = keys.map(([key]) => key);
          await Promise.all([
            rateCounters.reset(first),
            rateCounters.reset(accountKey),
            device ? Promise.resolve() : rateCounters.release(address, ATTEMPT_WINDOW_MS),
          ]);
          if (!device && scope !== 'password') {
            const nonce = randomBytes(16).toString('base64url');
            reply.setCookie(cookieName(scope), `${nonce}.${sign(`${scope}:${account}:${nonce}`)}`, {
              path: '/api/',
              httpOnly: true,
              sameSite: 'lax',
              secure: deps.config.publicUrl.startsWith('https://'),
              maxAge: DEVICE_COOKIE_MAX_AGE_S,
            });
          }
        },
      };
    },
  };
}
