import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, describeConfig, loadConfig } from './config';

const tmp = () => mkdtempSync(path.join(tmpdir(), 'cap-config-'));

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const dir = tmp();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({
      port: 5000,
      host: '0.0.0.0',
      dataDir: dir,
      databaseUrl: null,
      publicUrl: 'http://localhost:5000',
      blandApiUrl: 'https://api.bland.ai',
      adminUsername: null,
    });
    expect(config.stripe.secretKey).toBeNull();
    expect(config.http).toEqual({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 20_000,
      keepAliveTimeoutMs: 10_000,
      connectionTimeoutMs: 120_000,
    });
    expect(config.creationCaps).toEqual({
      draftsPerHour: 60,
      sampleSetsPerDay: 5,
      checkoutsPerHour: 20,
      webhookTestsPerHour: 20,
      webhookResendsPerHour: 60,
      exportsPerHour: 60,
      invitationsPerDay: 50,
      dnsChecksPerHour: 30,
      erasuresPerHour: 100,
      smsCodesPerHour: 5,
      numberSearchesPerHour: 30,
    });
    expect(config.textsPerClientPerDay).toBe(50);
  });

  it('takes the timeouts and creation caps from the environment', () => {
    const config = loadConfig({
      DATA_DIR: tmp(),
      HTTP_REQUEST_TIMEOUT_MS: '5000',
      HTTP_HEADERS_TIMEOUT_MS: '9000',
      CAP_DRAFTS_PER_HOUR: '10',
      CAP_SAMPLE_SETS_PER_DAY: '2',
      CAP_CHECKOUTS_PER_HOUR: '3',
      CAP_WEBHOOK_TESTS_PER_HOUR: '4',
      CAP_WEBHOOK_RESENDS_PER_HOUR: '5',
      CAP_EXPORTS_PER_HOUR: '6',
      CAP_INVITATIONS_PER_DAY: '7',
      CAP_DNS_CHECKS_PER_HOUR: '8',
      CAP_ERASURES_PER_HOUR: '9',
      CAP_SMS_CODES_PER_HOUR: '2',
      TEXTS_PER_CLIENT_PER_DAY: '11',
      CAP_NUMBER_SEARCHES_PER_HOUR: '11',
    });
    // Node needs the header deadline within the request's.
    expect(config.http).toMatchObject({ requestTimeoutMs: 5_000, headersTimeoutMs: 5_000 });
    expect(config.creationCaps).toEqual({
      draftsPerHour: 10,
      sampleSetsPerDay: 2,
      checkoutsPerHour: 3,
      webhookTestsPerHour: 4,
      webhookResendsPerHour: 5,
      exportsPerHour: 6,
      invitationsPerDay: 7,
      dnsChecksPerHour: 8,
      erasuresPerHour: 9,
      smsCodesPerHour: 2,
      numberSearchesPerHour: 11,
    });
    expect(config.textsPerClientPerDay).toBe(11);
  });

  it('generates APP_SECRET once into DATA_DIR with mode 0600 and reuses it', () => {
    const dir = tmp();
    const first = loadConfig({ DATA_DIR: dir }).appSecret;
    const file = path.join(dir, 'app-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dir }).appSecret).toBe(first);
  });

  it('derives PUBLIC_URL from PORT and strips trailing slashes', () => {
    expect(loadConfig({ DATA_DIR: tmp(), PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ DATA_DIR: tmp(), PUBLIC_URL: 'https://calls.example.com/' }).publicUrl).toBe(
      'https://calls.example.com',
    );
  });

  it.each([
    [{ PORT: 'abc' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ DATABASE_URL: 'postgres://db:5432/app' }, /APP_SECRET must be set when DATABASE_URL is set/],
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL/],
    [{ PUBLIC_URL: 'ftp://x' }, /PUBLIC_URL/],
    [{ APP_SECRET: 'short' }, /APP_SECRET/],
    [{ ADMIN_USERNAME: 'root' }, /ADMIN_PASSWORD/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ HTTP_REQUEST_TIMEOUT_MS: '0' }, /HTTP_REQUEST_TIMEOUT_MS/],
    [{ CAP_CHECKOUTS_PER_HOUR: '0' }, /CAP_CHECKOUTS_PER_HOUR must be between 1 and/],
    [{ CAP_DRAFTS_PER_HOUR: 'many' }, /CAP_DRAFTS_PER_HOUR must be a whole number/],
  ])('stops with one clear line on %o', (env, pattern) => {
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: tmp(), ...env });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(pattern);
    expect((error as Error).message).not.toContain('\n');
  });

  it('masks secrets when described for logs', () => {
    const config = loadConfig({
      DATA_DIR: tmp(),
      DATABASE_URL: 'postgres://user:hunter2@db:5432/app',
      APP_SECRET: 'a-shared-secret-0123456789',
      STRIPE_SECRET_KEY: 'sk_test_123',
      ADMIN_USERNAME: 'root',
      ADMIN_PASSWORD: 'root-password',
    });
    const text = JSON.stringify(describeConfig(config));
    for (const secret of ['hunter2', 'sk_test_123', 'root-password', config.appSecret])
      expect(text).not.toContain(secret);
  });

  it('takes a DKIM key as PEM (with "\\n" escapes), names the variable when it is not one, masks it', () => {
    const pem = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const oneLine = pem.trim().replace(/\n/g, '\\n');
    const config = loadConfig({ DATA_DIR: tmp(), DKIM_PRIVATE_KEY: oneLine, DKIM_SELECTOR: 'Mail2026' });
    expect(config.mail.dkim).toEqual({ selector: 'mail2026', privateKey: pem.trim() });
    expect(JSON.stringify(describeConfig(config))).not.toContain(pem.split('\n')[1]);
    const fails = (env: Record<string, string>) => {
      try {
        loadConfig({ DATA_DIR: tmp(), ...env });
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return (e as Error).message;
      }
      return 'loaded';
    };
    expect(fails({ DKIM_PRIVATE_KEY: 'not a key', DKIM_SELECTOR: 'mail' })).toMatch(
      /DKIM_PRIVATE_KEY must be/,
    );
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    expect(fails({ DKIM_PRIVATE_KEY: ec, DKIM_SELECTOR: 'mail' })).toMatch(
      /DKIM_PRIVATE_KEY must be an RSA key/,
    );
    expect(fails({ DKIM_PRIVATE_KEY: pem })).toMatch(/DKIM_PRIVATE_KEY and DKIM_SELECTOR/);
    expect(fails({ DKIM_PRIVATE_KEY: pem, DKIM_SELECTOR: 'bad selector' })).toMatch(/DKIM_SELECTOR/);
  });

  it('takes DNS servers as IP addresses with optional ports', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).dnsServers).toBeNull();
    expect(
      loadConfig({ DATA_DIR: tmp(), DNS_SERVERS: '127.0.0.1:5353, [::1]:53,9.9.9.9' }).dnsServers,
    ).toEqual(['127.0.0.1:5353', '[::1]:53', '9.9.9.9']);
    expect(() => loadConfig({ DATA_DIR: tmp(), DNS_SERVERS: 'dns.example:53' })).toThrow(
      /DNS_SERVERS must be/,
    );
    expect(() => loadConfig({ DATA_DIR: tmp(), DNS_SERVERS: '127.0.0.1:99999' })).toThrow(
      /DNS_SERVERS must be/,
    );
  });

  it('reads the operations settings with their defaults, and refuses bad ones', () => {
    const defaults = loadConfig({ DATA_DIR: tmp() }).operations;
    expect(defaults).toMatchObject({
      metricsToken: null,
      metricsPort: null,
      readyOutboxMaxAgeMs: 3_600_000,
      shutdownDelayMs: 0,
      shutdownTimeoutMs: 20_000,
      backupEncryptionKey: null,
      backupSchedule: '0 3 * * *',
      backupKeep: 14,
    });
    expect(defaults.backupDir).toBe(path.resolve('./backups'));
    const set = loadConfig({
      DATA_DIR: tmp(),
      METRICS_TOKEN: 'metrics-token-0123456789',
      BACKUP_SCHEDULE: 'off',
      BACKUP_KEEP: '3',
    });
    expect(set.operations).toMatchObject({
      metricsToken: 'metrics-token-0123456789',
      backupSchedule: null,
      backupKeep: 3,
    });
    expect(JSON.stringify(describeConfig(set))).not.toContain('metrics-token-0123456789');
    expect(() => loadConfig({ DATA_DIR: tmp(), BACKUP_SCHEDULE: '61 3 * * *' })).toThrow(
      /BACKUP_SCHEDULE must be cron/,
    );
    expect(() => loadConfig({ DATA_DIR: tmp(), METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be/);
    expect(() => loadConfig({ DATA_DIR: tmp(), PORT: '5000', METRICS_PORT: '5000' })).toThrow(
      /METRICS_PORT must differ from PORT/,
    );
    expect(() => loadConfig({ DATA_DIR: tmp(), BACKUP_ENCRYPTION_KEY: 'short' })).toThrow(
      /BACKUP_ENCRYPTION_KEY must be/,
    );
  });

  it('leaves DATA_DIR untouched when asked (restore into an empty folder)', () => {
    const dir = path.join(tmp(), 'fresh');
    expect(loadConfig({ DATA_DIR: dir }, { readOnlyDataDir: true }).appSecret).toBe('');
    expect(() => statSync(dir)).toThrow();
  });
});
