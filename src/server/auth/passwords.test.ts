import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, PASSWORD_COST, verifyPassword } from './passwords';

describe('password hashes', () => {
  it("are scrypt at OWASP's cost (N=2^17, r=8, p=1) and verify", async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored.split('$').slice(0, 4)).toEqual(['scrypt', String(2 ** 17), '8', '1']);
    expect(PASSWORD_COST).toEqual({ N: 2 ** 17, r: 8, p: 1 });
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('wrong horse battery', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(false);
  });

  it('ask to be re-made when their parameters are older, and refuse tampered ones', async () => {
    expect(needsRehash('scrypt$16384$8$1$c2FsdA$aGFzaA')).toBe(true);
    // A stored hash asking for 2^30 rounds (gigabytes of memory) is not even tried.
    expect(await verifyPassword('x', 'scrypt$1073741824$8$1$c2FsdA$aGFzaA')).toBe(false);
    expect(await verifyPassword('x', 'bcrypt$whatever')).toBe(false);
  });
});
