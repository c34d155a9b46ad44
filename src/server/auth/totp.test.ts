import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import {
  asTotpCode,
  newRecoveryCodes,
  newTotpSecret,
  recoveryCodeHash,
  totpStepAt,
  verifyTotp,
} from './totp';

const AT = Date.UTC(2026, 10, 27, 12, 0, 10);

async function codeAt(secret: string, ms: number) {
  return generate({ secret, epoch: Math.floor(ms / 1000) });
}

describe('totp', () => {
  it('accepts the current code and one step either way, not two', async () => {
    const secret = newTotpSecret();
    const step = totpStepAt(AT);
    expect(await verifyTotp(secret, await codeAt(secret, AT), AT, null)).toBe(step);
    expect(await verifyTotp(secret, await codeAt(secret, AT - 30_000), AT, null)).toBe(step - 1);
    expect(await verifyTotp(secret, await codeAt(secret, AT + 30_000), AT, null)).toBe(step + 1);
    expect(await verifyTotp(secret, await codeAt(secret, AT - 60_000), AT, null)).toBeNull();
  });

  it('refuses a code of the last accepted step or an earlier one (replay)', async () => {
    const secret = newTotpSecret();
    const step = totpStepAt(AT);
    const code = await codeAt(secret, AT);
    expect(await verifyTotp(secret, code, AT, step)).toBeNull();
    expect(await verifyTotp(secret, await codeAt(secret, AT - 30_000), AT, step - 1)).toBeNull();
    expect(await verifyTotp(secret, code, AT, step - 1)).toBe(step);
  });

  it('tells a 6-digit code from a recovery code', () => {
    expect(asTotpCode(' 123 456 ')).toBe('123456');
    expect(asTotpCode('k7dm-2xqa-p9rt')).toBeNull();
  });

  it('makes ten distinct recovery codes, hashed whatever the case or dashes', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect(recoveryCodeHash(codes[0].toUpperCase().replace(/-/g, ' '))).toBe(recoveryCodeHash(codes[0]));
  });
});
