/**
 * The backup file: one file holding its manifest and the database's copy, so neither
 * can travel without the other.
 *
 *   bytes 0-7   "CABACKUP" (what tells a backup from any other file)
 *   bytes 8-11  the manifest's length, big-endian
 *   then        the manifest, JSON (readable with `head -c 4096 FILE`; a copy sits beside the
 *               file as FILE.json)
 *   then        the payload: the SQLite database file (gzipped: `payload.compression`), or
 *               pg_dump's custom-format archive (compressed by pg_dump); with BACKUP_ENCRYPTION_KEY, that payload encrypted with AES-256-GCM under a key
 *               derived by scrypt from the passphrase and a random salt, followed by the 16-byte
 *               tag; the manifest is the cipher's associated data, so neither can be changed.
 * The manifest's sha256 is the plain payload's, checked at restore before anything is replaced.
 * The manifest is signed (`signature`: HMAC-SHA-256 under a key derived from APP_SECRET, over the
 * manifest without it), so the sha256 cannot be recomputed for edited data: a checksum alone is
 * no defence against whoever can write the file. An encrypted backup is authenticated by its
 * cipher as well (the passphrase); a plain one has only the signature, so restore requires it
 * (`checkSignature`).
 * Pure file work: no database, no configuration (the caller passes the keys).
 */
import {
  type BinaryLike,
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  scrypt as scryptCallback,
  timingSafeEqual,
} from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';

export const MAGIC = Buffer.from('CABACKUP', 'ascii');
export const FORMAT = 'callanalytics-backup';
export const FORMAT_VERSION = 1;
const TAG_BYTES = 16;
const MAX_MANIFEST_BYTES = 1024 * 1024;
/** scrypt's cost: about 100 ms here, once per backup or restore. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;

export interface BackupManifest {
  format: typeof FORMAT;
  formatVersion: number;
  /** The product's version (package.json) that wrote it. */
  version: string;
  createdAt: string;
  database: 'sqlite' | 'postgres';
  /** sqlite-file: the database file itself; pg_dump-custom: `pg_dump --format=custom`. */
  /** `bytes` and `sha256` are the plain data's, before compression and encryption. */
  payload: {
    kind: 'sqlite-file' | 'pg_dump-custom';
    bytes: number;
    sha256: string;
    compression?: 'gzip' | null;
  };
  migrations: { applied: number; last: string | null; names: string[] };
  /** Rows at the backup's moment (the same snapshot as the copy): restore checks them. */
  rows: Record<string, number>;
  /** How the payload is encrypted; null: it is not. */
  encryption: null | {
    cipher: 'aes-256-gcm';
    kdf: 'scrypt';
    salt: string;
    iv: string;
    N: number;
    r: number;
    p: number;
  };
  /** The pg_dump that wrote a PostgreSQL payload ("pg_dump (PostgreSQL) 15.8"). */
  tool?: string;
  /** HMAC-SHA-256 (hex) of the manifest's JSON without this field, under backupSigningKey. */
  signature?: { alg: 'hmac-sha256'; key: 'app-secret'; value: string };
}

/** The key backups are signed with: derived from APP_SECRET, used for nothing else. */
export function backupSigningKey(appSecret: string): Buffer | null {
  if (!appSecret) return null;
  return Buffer.from(hkdfSync('sha256', appSecret, '', 'callanalytics backup signature v1', 32));
}

const signatureOf = (manifest: Omit<BackupManifest, 'signature'>, key: Buffer) =>
  createHmac('sha256', key).update(JSON.stringify(manifest), 'utf8').digest();

/**
 * Refuses a plain backup that does not carry a valid signature of this APP_SECRET: edited rows
 * or an added trigger with the checksum recomputed, or the signature removed. An unsigned one
 * (made before backups were signed) passes only with `allowUnsigned` (restore's
 * --allow-unsigned). An encrypted backup is checked by its cipher instead, manifest included.
 */
export function checkSignature(
  manifest: BackupManifest,
  key: Buffer | null,
  options: { allowUnsigned?: boolean } = {},
): void {
  if (manifest.encryption) return;
  const { signature, ...rest } = manifest;
  if (!signature) {
    if (options.allowUnsigned) return;
    throw new BackupError(
      'This backup is not signed (made before backups were signed, or its signature was removed): restore it only if you know where it has been, with --allow-unsigned; nothing was changed',
    );
  }
  if (!key)
    throw new BackupError(
      'This backup is signed with its installation’s APP_SECRET: set APP_SECRET (or DATA_DIR/app-secret) to that secret to check it; nothing was changed',
    );
  const expected = signatureOf(rest, key);
  const given = Buffer.from(typeof signature.value === 'string' ? signature.value : '', 'hex');
  if (
    signature.alg !== 'hmac-sha256' ||
    given.length !== expected.length ||
    !timingSafeEqual(given, expected)
  )
    throw new BackupError(
      'This backup’s signature does not verify: the file was changed after it was made, or APP_SECRET is not the one of the installation that made it; nothing was changed',
    );
}

/** A failure the commands print as their one line. */
export class BackupError extends Error {}

function scrypt(
  passphrase: string,
  salt: BinaryLike,
  params: { N: number; r: number; p: number },
): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(passphrase, salt, 32, { ...params, maxmem: SCRYPT.maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

function header(manifest: BackupManifest): { bytes: Buffer; json: Buffer } {
  const json = Buffer.from(JSON.stringify(manifest), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length);
  return { bytes: Buffer.concat([MAGIC, length, json]), json };
}

/**
 * Writes `payloadFile` into `target` with its manifest; encrypts when a passphrase is given.
 * Answers the manifest as written and the file's size.
 */
export async function writeBackupFile(
  target: string,
  payloadFile: string,
  manifest: Omit<BackupManifest, 'payload' | 'encryption' | 'format' | 'formatVersion'> & {
    payloadKind: BackupManifest['payload']['kind'];
  },
  passphrase: string | null,
  compress = false,
  signingKey: Buffer | null = null,
): Promise<{ manifest: BackupManifest; bytes: number }> {
  const { payloadKind, ...rest } = manifest;
  const payload = {
    kind: payloadKind,
    bytes: (await stat(payloadFile)).size,
    sha256: await sha256OfFile(payloadFile),
    compression: compress ? ('gzip' as const) : null,
  };
  let encryption: BackupManifest['encryption'] = null;
  let key: Buffer | null = null;
  if (passphrase) {
    const salt = randomBytes(16);
    const iv = randomBytes(12);
    key = await scrypt(passphrase, salt, SCRYPT);
    encryption = {
      cipher: 'aes-256-gcm',
      kdf: 'scrypt',
      salt: salt.toString('base64'),
      iv: iv.toString('base64'),
      N: SCRYPT.N,
      r: SCRYPT.r,
      p: SCRYPT.p,
    };
  }
  const unsigned: BackupManifest = {
    format: FORMAT,
    formatVersion: FORMAT_VERSION,
    ...rest,
    payload,
    encryption,
  };
  const full: BackupManifest = signingKey
    ? {
        ...unsigned,
        signature: {
          alg: 'hmac-sha256',
          key: 'app-secret',
          value: signatureOf(unsigned, signingKey).toString('hex'),
        },
      }
    : unsigned;
  const { bytes: head, json } = header(full);
  // `target` is the caller's own `.partial-…` name, made again if a crash left one behind.
  const out = createWriteStream(target, { flags: 'w', mode: 0o600 });
  const written = new Promise<void>((resolve, reject) => {
    out.once('error', reject);
    out.once('ready', resolve);
  });
  await written;
  out.write(head);
  // Level 1: most of the gain (a database file shrinks several times) for little CPU.
  const squeeze = () => (compress ? [createGzip({ level: 1 })] : []);
  if (key && encryption) {
    const cipher = createCipheriv('aes-256-gcm', key, Buffer.from(encryption.iv, 'base64'));
    cipher.setAAD(json);
    await pipeline([
      createReadStream(payloadFile),
      ...squeeze(),
      cipher,
      appendAtEnd(() => cipher.getAuthTag()),
      out,
    ]);
  } else {
    await pipeline([createReadStream(payloadFile), ...squeeze(), out]);
  }
  // Durable before it is named a backup (the caller renames it).
  const handle = await open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  return { manifest: full, bytes: (await stat(target)).size };
}

/** Passes bytes through and adds what `tail()` gives once the input has ended (the GCM tag). */
function appendAtEnd(tail: () => Buffer): Transform {
  return new Transform({
    transform(chunk, _encoding, done) {
      done(null, chunk);
    },
    flush(done) {
      done(null, tail());
    },
  });
}

/** Reads and checks the manifest at the start of a file; a foreign or damaged file is refused. */
export async function readManifest(
  file: string,
): Promise<{ manifest: BackupManifest; payloadOffset: number; json: Buffer }> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    // What open() throws is a Node system error, with its code.
    const { code, message } = error as NodeJS.ErrnoException;
    throw new BackupError(code === 'ENOENT' ? `No such file: ${file}` : `Cannot read ${file}: ${message}`);
  }
  try {
    const start = Buffer.alloc(12);
    const { bytesRead } = await handle.read(start, 0, 12, 0);
    if (bytesRead < 12 || !start.subarray(0, 8).equals(MAGIC))
      throw new BackupError(`${file} is not a backup of this product (made by npm run backup)`);
    const length = start.readUInt32BE(8);
    if (length > MAX_MANIFEST_BYTES) throw new BackupError(`${file} is damaged: its manifest is unreadable`);
    const json = Buffer.alloc(length);
    const read = await handle.read(json, 0, length, 12);
    if (read.bytesRead < length) throw new BackupError(`${file} is damaged: it ends inside its manifest`);
    let manifest: BackupManifest;
    try {
      // JSON.parse is any: its format and payload hash are checked just below, before anything is used.
      manifest = JSON.parse(json.toString('utf8')) as BackupManifest;
    } catch {
      throw new BackupError(`${file} is damaged: its manifest is unreadable`);
    }
    if (manifest.format !== FORMAT || typeof manifest.payload?.sha256 !== 'string')
      throw new BackupError(`${file} is not a backup of this product (made by npm run backup)`);
    if (manifest.formatVersion > FORMAT_VERSION)
      throw new BackupError(
        `${file} was written by a newer version (${manifest.version}): restore it with that version`,
      );
    return { manifest, payloadOffset: 12 + length, json };
  } finally {
    await handle.close();
  }
}

/**
 * Writes the plain payload of `file` to `target`, decrypting with `passphrase` when the backup is
 * encrypted, and checks its size and sha256 against the manifest. Throws BackupError (and leaves
 * `target` for the caller to remove) when anything differs.
 */
export async function extractPayload(
  file: string,
  target: string,
  passphrase: string | null,
): Promise<BackupManifest> {
  const { manifest, payloadOffset, json } = await readManifest(file);
  const size = (await stat(file)).size;
  const hash = createHash('sha256');
  let bytes = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  if (manifest.encryption && !passphrase)
    throw new BackupError('This backup is encrypted: set BACKUP_ENCRYPTION_KEY to the key it was made with');
  const out = createWriteStream(target, { flags: 'wx', mode: 0o600 });
  const unsqueeze = () => (manifest.payload.compression === 'gzip' ? [createGunzip()] : []);
  if (manifest.encryption && passphrase) {
    const { salt, iv, N, r, p } = manifest.encryption;
    const end = size - TAG_BYTES - 1;
    if (end < payloadOffset - 1) throw new BackupError(`${file} is damaged: it is cut short`);
    const tag = Buffer.alloc(TAG_BYTES);
    const handle = await open(file, 'r');
    try {
      await handle.read(tag, 0, TAG_BYTES, size - TAG_BYTES);
    } finally {
      await handle.close();
    }
    const key = await scrypt(passphrase, Buffer.from(salt, 'base64'), { N, r, p });
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
    decipher.setAAD(json);
    decipher.setAuthTag(tag);
    try {
      await pipeline([
        createReadStream(file, { start: payloadOffset, end }),
        decipher,
        ...unsqueeze(),
        measure,
        out,
      ]);
    } catch {
      // GCM's check fails at the end: a wrong key and a changed file look alike.
      throw new BackupError(
        'Cannot decrypt this backup: BACKUP_ENCRYPTION_KEY is not the key it was made with, or the file was changed',
      );
    }
  } else {
    try {
      await pipeline([createReadStream(file, { start: payloadOffset }), ...unsqueeze(), measure, out]);
    } catch (error) {
      // zlib's errors are Node system errors; their codes start with Z_.
      if (String((error as NodeJS.ErrnoException).code ?? '').startsWith('Z_'))
        throw new BackupError(`${file} is damaged: its data does not decompress`);
      throw error;
    }
  }
  if (bytes !== manifest.payload.bytes)
    throw new BackupError(
      `${file} is damaged: ${bytes} bytes of data where its manifest says ${manifest.payload.bytes}`,
    );
  if (hash.digest('hex') !== manifest.payload.sha256)
    throw new BackupError(`${file} is damaged: its data does not match the manifest's sha256`);
  return manifest;
}
