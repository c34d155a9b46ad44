import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BackupError, extractPayload, readManifest, writeBackupFile } from './backup-file';

const dir = mkdtempSync(path.join(tmpdir(), 'cap-backup-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const manifest = {
  version: '0.1.0',
  createdAt: '2026-11-27T03:00:00.000Z',
  database: 'sqlite' as const,
  payloadKind: 'sqlite-file' as const,
  migrations: { applied: 1, last: '001_initial', names: ['001_initial'] },
  rows: { calls: 3 },
};

/** Data that compresses (text) with a stretch that does not (random bytes). */
function payload(): string {
  const file = path.join(dir, `payload-${randomBytes(4).toString('hex')}`);
  writeFileSync(file, Buffer.concat([Buffer.from('call '.repeat(50_000)), randomBytes(10_000)]));
  return file;
}

describe('the backup file', () => {
  for (const [name, passphrase, compress] of [
    ['plain', null, false],
    ['gzipped', null, true],
    ['encrypted', 'a-passphrase-of-sixteen', false],
    ['gzipped and encrypted', 'a-passphrase-of-sixteen', true],
  ] as const) {
    it(`gives back exactly what went in (${name})`, async () => {
      const data = payload();
      const file = path.join(dir, `${name.replace(/ /g, '-')}.backup`);
      const written = await writeBackupFile(file, data, manifest, passphrase, compress);
      expect(written.manifest.payload.compression).toBe(compress ? 'gzip' : null);
      expect(written.manifest.encryption?.cipher ?? null).toBe(passphrase ? 'aes-256-gcm' : null);
      if (compress) expect(written.bytes).toBeLessThan(readFileSync(data).length / 2);
      expect((await readManifest(file)).manifest).toEqual(written.manifest);
      const out = path.join(dir, `${name.replace(/ /g, '-')}.out`);
      await extractPayload(file, out, passphrase);
      expect(readFileSync(out).equals(readFileSync(data))).toBe(true);
    });
  }

  it('refuses changed data, and a changed manifest of an encrypted one', async () => {
    const data = payload();
    for (const compress of [false, true]) {
      const file = path.join(dir, `changed-${compress}.backup`);
      await writeBackupFile(file, data, manifest, null, compress);
      const { payloadOffset } = await readManifest(file);
      const bytes = readFileSync(file);
      bytes[payloadOffset + 1_000] ^= 0x01;
      writeFileSync(file, bytes);
      const error = await extractPayload(file, `${file}.out`, null).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BackupError);
      expect((error as Error).message).toMatch(/is damaged/);
    }
    const sealed = path.join(dir, 'sealed.backup');
    await writeBackupFile(sealed, data, manifest, 'a-passphrase-of-sixteen');
    // The manifest is the cipher's associated data: a row count edited by hand is caught.
    const text = readFileSync(sealed).toString('latin1').replace('"calls":3', '"calls":4');
    writeFileSync(sealed, Buffer.from(text, 'latin1'));
    const error = await extractPayload(sealed, `${sealed}.out`, 'a-passphrase-of-sixteen').catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(/^Cannot decrypt this backup/);
  });
});
