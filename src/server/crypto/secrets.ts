/**
 * Secrets at rest (provider API keys, webhook signing secrets): AES-256-GCM with a key derived
 * from APP_SECRET. Ciphertext format: v1.<iv>.<tag>.<data>, each part base64url.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

export interface SecretBox {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
  /** Keyed hash for values we must look up but never store (HMAC-SHA256, hex). */
  hmac(value: string): string;
}

export function createSecretBox(appSecret: string): SecretBox {
  const key = createHash('sha256').update(`secret-box:${appSecret}`).digest();
  const macKey = createHash('sha256').update(`mac:${appSecret}`).digest();
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), data]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    decrypt(sealed) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Unreadable secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
    hmac(value) {
      return createHmac('sha256', macKey).update(value).digest('hex');
    },
  };
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Constant-time comparison of two strings of any length. */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
