/**
 * The pending sign-in between a right password and its code: the challenge's cookie and how it
 * is opened. Opened by the password step (auth/routes.ts) and by an accepted invitation's first
 * sign-in (teams/users-routes.ts); completed by two-factor-login-routes.ts.
 */
import type { FastifyReply } from 'fastify';
import { TWO_FACTOR_CHALLENGE_TTL_MS, type TwoFactorRequired } from '../../contract/two-factor';
import type { AppDeps } from '../context';
import type { TwoFactorSubjectKind } from '../db/schema';
import { createChallenge, type TwoFactorSubject } from './two-factor-store';

export const CHALLENGE_COOKIES: Record<TwoFactorSubjectKind, string> = {
  client_user: 'client_2fa',
  admin: 'admin_2fa',
};

export function challengeCookieOptions(deps: Pick<AppDeps, 'config'>) {
  return {
    path: '/api/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: deps.config.publicUrl.startsWith('https://'),
  };
}

/** The password was right: the pending sign-in, and the answer that asks for the code. */
export async function beginTwoFactorSignIn(
  deps: Pick<AppDeps, 'db' | 'config' | 'now'>,
  reply: FastifyReply,
  subject: TwoFactorSubject,
): Promise<TwoFactorRequired> {
  const raw = await createChallenge(deps.db, subject, deps.now());
  reply.setCookie(CHALLENGE_COOKIES[subject.kind], raw, {
    ...challengeCookieOptions(deps),
    maxAge: TWO_FACTOR_CHALLENGE_TTL_MS / 1000,
  });
  return { twoFactorRequired: true };
}
