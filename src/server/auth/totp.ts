/**
 * The one-time codes of two-factor sign-in: TOTP (RFC 6238: SHA-1, 6 digits, 30 s, as every
 * authenticator app expects) through otplib, the QR code through qrcode, and the recovery codes.
 * Pure functions: what is stored, and where, is two-factor-store.ts.
 */
import { randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { RECOVERY_CODE_COUNT } from '../../contract/two-factor';
import { sha256Hex } from '../crypto/secrets';

export const TOTP_PERIOD_S = 30;
/** What the authenticator app shows as the account's issuer. */
export const TOTP_ISSUER = 'Call Analytics';

export function newTotpSecret(): string {
  return generateSecret();
}

export function totpStepAt(nowMs: number): number {
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_S);
}

export function otpauthUrlOf(secret: string, label: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label, secret });
}

export function qrSvgOf(url: string): Promise<string> {
  return QRCode.toString(url, { type: 'svg', margin: 2 });
}

/** A 6-digit code once spaces and dashes are gone; anything else may be a recovery code. */
export function asTotpCode(input: string): string | null {
  const code = input.replace(/[\s-]/g, '');
  return /^\d{6}$/.test(code) ? code : null;
}

/**
 * The time step a code belongs to, when it is right within one step either way (a phone's clock
 * a little off, a code typed as it turned) and later than `afterStep` (a code is good once: the
 * same or an earlier step is a replay). Null otherwise.
 */
export async function verifyTotp(
  secret: string,
  code: string,
  nowMs: number,
  afterStep: number | null,
): Promise<number | null> {
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(nowMs / 1000),
    epochTolerance: TOTP_PERIOD_S,
    ...(afterStep !== null ? { afterTimeStep: afterStep } : {}),
  });
  // delta: how many steps from now the code's step is (-1, 0 or 1).
  return result.valid ? totpStepAt(nowMs) + result.delta : null;
}

// No 0/o, 1/l/i: a code copied from paper is read back without doubt.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_GROUPS = 3;
const RECOVERY_GROUP_LENGTH = 4;

/** Ten codes like `k7dm-2xqa-p9rt` (about 59 random bits each). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from({ length: RECOVERY_GROUPS }, () =>
      Array.from(
        { length: RECOVERY_GROUP_LENGTH },
        () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)],
      ).join(''),
    ).join('-'),
  );
}

/** What is stored of a recovery code: the sha256 of its letters, whatever the case or dashes typed. */
export function recoveryCodeHash(input: string): string {
  return sha256Hex(input.toLowerCase().replace(/[^a-z0-9]/g, ''));
}
