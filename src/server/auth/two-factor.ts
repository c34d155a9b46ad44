/**
 * Two-factor sign-in's decisions, shared by client users and admins: setting a secret up,
 * confirming it (which turns it on and issues the recovery codes), and checking a second factor
 * (a TOTP code, good once, or a recovery code, good once). The stored state is
 * two-factor-store.ts; the codes themselves totp.ts.
 */
import type { Kysely } from 'kysely';
import type { AppDeps } from '../context';
import type { Database } from '../db/schema';
import {
  asTotpCode,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUrlOf,
  qrSvgOf,
  recoveryCodeHash,
  verifyTotp,
} from './totp';
import {
  claimStep,
  enableTwoFactor,
  setPendingSecret,
  spendRecoveryCode,
  type TwoFactorState,
  type TwoFactorSubject,
} from './two-factor-store';

type Deps = Pick<AppDeps, 'secrets' | 'now'>;

/** A new secret to scan; it replaces the one being set up, and counts once a code confirms it. */
export async function startSetup(deps: Deps, db: Kysely<Database>, subject: TwoFactorSubject, label: string) {
  const secret = newTotpSecret();
  await setPendingSecret(db, subject, deps.secrets.encrypt(secret));
  const otpauthUrl = otpauthUrlOf(secret, label);
  return { otpauthUrl, qrSvg: await qrSvgOf(otpauthUrl) };
}

/**
 * The secret being set up, when `code` is right for it: what `enableTwoFactor` stores, with the
 * ten recovery codes to show once. Undefined for a wrong code.
 */
export async function confirmSetup(deps: Deps, state: TwoFactorState, code: string) {
  if (!state.pendingEnc) return undefined;
  const totp = asTotpCode(code);
  if (!totp) return undefined;
  const secret = deps.secrets.decrypt(state.pendingEnc);
  const step = await verifyTotp(secret, totp, deps.now(), null);
  if (step === null) return undefined;
  const recoveryCodes = newRecoveryCodes();
  return {
    recoveryCodes,
    change: { sealedSecret: state.pendingEnc, step, codeHashes: recoveryCodes.map(recoveryCodeHash) },
  };
}

export { enableTwoFactor };

/**
 * Checks a second factor of a subject with two-factor sign-in on, spending it: a TOTP code's
 * step becomes the last accepted one, a recovery code is used up. Null when it is not right.
 */
export async function checkSecondFactor(
  deps: Deps,
  db: Kysely<Database>,
  subject: TwoFactorSubject,
  state: TwoFactorState,
  code: string,
): Promise<'totp' | 'recovery' | null> {
  if (!state.secretEnc || state.enabledAt === null) return null;
  const totp = asTotpCode(code);
  if (totp) {
    const step = await verifyTotp(deps.secrets.decrypt(state.secretEnc), totp, deps.now(), state.lastStep);
    // A step claimed by a concurrent request with the same code is a replay too.
    return step !== null && (await claimStep(db, subject, step)) ? 'totp' : null;
  }
  return (await spendRecoveryCode(db, subject, recoveryCodeHash(code), deps.now())) ? 'recovery' : null;
}
