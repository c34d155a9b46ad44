/**
 * scrypt password hashes: scrypt$N$r$p$salt$hash, per-user salt, constant-time verify. The cost is
 * OWASP's current recommendation for scrypt (N=2^17, r=8, p=1: 128 MiB and a few hundred ms per
 * hash); hashes made with other parameters are re-made at the next successful login.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

export const PASSWORD_COST: Readonly<ScryptCost> = { N: 2 ** 17, r: 8, p: 1 };
let cost: Readonly<ScryptCost> = PASSWORD_COST;
const KEY_LENGTH = 64;
/** Largest N a stored hash may ask for: a tampered hash must not make us allocate gigabytes. */
const MAX_N = 2 ** 20;

/**
 * For test suites only (API tests sign in hundreds of times): a cheap cost. Called from test
 * setup code, never configurable from the environment, so no deployment can weaken it by mistake.
 */
export function cheapenPasswordHashingForTests(): void {
  cost = { N: 2 ** 10, r: 8, p: 1 };
}

function derive(password: string, salt: Buffer, { N, r, p }: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // scrypt needs 128·N·r bytes; twice that leaves room for its own bookkeeping.
    scrypt(password, salt, KEY_LENGTH, { N, r, p, maxmem: 256 * N * r }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

function parse(stored: string): (ScryptCost & { salt: string; hash: string }) | null {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  const sane =
    Number.isInteger(params.N) && params.N > 1 && params.N <= MAX_N && (params.N & (params.N - 1)) === 0;
  if (
    scheme !== 'scrypt' ||
    !salt ||
    !hash ||
    !sane ||
    !(params.r >= 1 && params.r <= 32) ||
    params.p !== 1
  ) {
    return null;
  }
  return { ...params, salt, hash };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const expected = Buffer.from(parsed.hash, 'base64url');
  const key = await derive(password, Buffer.from(parsed.salt, 'base64url'), parsed);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** True for a hash made with other parameters than today's: re-hash it at the next login. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.N !== cost.N || parsed.r !== cost.r || parsed.p !== cost.p;
}

/**
 * A real hash of a random password: unknown accounts are checked against it so that
 * "no such user" and "wrong password" take the same time.
 */
let decoy: Promise<string> | null = null;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
}

/** Readable temporary passwords (no look-alike characters), ~80 bits. */
export function generateTemporaryPassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(16);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return `${out.slice(0, 4)}-${out.slice(4, 8)}-${out.slice(8, 12)}-${out.slice(12, 16)}`;
}
