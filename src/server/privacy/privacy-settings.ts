/**
 * A client's privacy settings: its own redaction categories, national-ID countries and
 * retention in `client_privacy`, the agency's defaults in `app_settings`. A client follows the
 * defaults until it saves its own; retention is never longer than the agency's (a client may only
 * shorten it). Cached per database handle for PRIVACY_CACHE_MS, like the brand: every call written
 * reads its client's categories, and a change on one instance reaches the others within that
 * time; the routes drop this instance's cache after a save.
 *
 * Owns `client_privacy`'s settings and the defaults' key; the runs (re-redaction, retention) keep
 * their progress columns through their own modules.
 */
import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod';
import {
  DEFAULT_REDACTION,
  KEEP_FOREVER,
  NATIONAL_ID_COUNTRIES,
  type PrivacyDefaults,
  PrivacyDefaults as PrivacyDefaultsSchema,
  type RedactionCategories,
  RedactionCategories as RedactionCategoriesSchema,
  type Retention,
  type RetentionField,
  Retention as RetentionSchema,
} from '../../contract/privacy';
import { requestWalk } from '../background/client-walk';
import type { Database } from '../db/schema';
import type { RedactionOptions } from './redaction';

export const PRIVACY_CACHE_MS = 5_000;
const DEFAULTS_KEY = 'privacy_defaults';

/** What a client saved; a part left out follows the agency's defaults. */
const StoredClientPrivacy = z.object({
  redaction: RedactionCategoriesSchema.optional(),
  nationalIdCountries: z.array(z.enum(NATIONAL_ID_COUNTRIES)).optional(),
  retention: RetentionSchema.optional(),
  /** Absent: on, what was always done (the call's own numbers are its metadata). */
  keepCallerNumber: z.boolean().optional(),
});
export type StoredClientPrivacy = z.infer<typeof StoredClientPrivacy>;

export const BUILT_IN_DEFAULTS: PrivacyDefaults = {
  redaction: DEFAULT_REDACTION,
  nationalIdCountries: [],
  retention: KEEP_FOREVER,
};

/** The settings in force for one client. */
export interface EffectivePrivacy {
  redaction: RedactionCategories;
  nationalIdCountries: string[];
  retention: Retention;
  agencyRetention: Retention;
  /** Whether the call's own from/to numbers stay readable where the caller says them. */
  keepCallerNumber: boolean;
  own: StoredClientPrivacy;
}

// Object.keys is string[]; KEEP_FOREVER has exactly the retention fields
const RETENTION_FIELDS = Object.keys(KEEP_FOREVER) as RetentionField[];

/** The shorter of two retentions, field by field (null keeps for ever, so the other one wins). */
export function shorterRetention(a: Retention, b: Retention): Retention {
  const out = { ...KEEP_FOREVER };
  for (const f of RETENTION_FIELDS) {
    const x = a[f];
    const y = b[f];
    out[f] = x === null ? y : y === null ? x : Math.min(x, y);
  }
  return out;
}

function parseJson(text: string | null | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function effectivePrivacy(defaults: PrivacyDefaults, own: StoredClientPrivacy): EffectivePrivacy {
  return {
    redaction: own.redaction ?? defaults.redaction,
    nationalIdCountries: own.nationalIdCountries ?? defaults.nationalIdCountries,
    retention: shorterRetention(own.retention ?? KEEP_FOREVER, defaults.retention),
    agencyRetention: defaults.retention,
    keepCallerNumber: own.keepCallerNumber ?? true,
    own,
  };
}

/**
 * The engine's options for one call: `keepNumbers` are the call's own from/to numbers, kept out
 * of the redaction unless the client turned "Keep the caller's own number" off.
 */
export function redactionOptionsOf(privacy: EffectivePrivacy, keepNumbers: string[] = []): RedactionOptions {
  return {
    ...privacy.redaction,
    nationalIdCountries: privacy.nationalIdCountries,
    keepNumbers: privacy.keepCallerNumber ? keepNumbers : [],
  };
}

/** Whether any category is on (nothing to do for a client that turned them all off). */
export const redactsAnything = (privacy: EffectivePrivacy) => Object.values(privacy.redaction).some(Boolean);

// ---- reads, cached ------------------------------------------------------------------------------

interface CacheEntry {
  at: number;
  defaults?: Promise<PrivacyDefaults>;
  clients: Map<string, Promise<StoredClientPrivacy>>;
}
const cache = new WeakMap<Kysely<Database>, CacheEntry>();

function entryFor(db: Kysely<Database>): CacheEntry | null {
  // A transaction reads what it sees itself; only the root handle's reads are shared.
  if ((db as Transaction<Database>).isTransaction) return null;
  const hit = cache.get(db);
  if (hit && Date.now() - hit.at < PRIVACY_CACHE_MS) return hit;
  const fresh: CacheEntry = { at: Date.now(), clients: new Map() };
  cache.set(db, fresh);
  return fresh;
}

async function readDefaults(db: Kysely<Database>): Promise<PrivacyDefaults> {
  const row = await db
    .selectFrom('app_settings')
    .select('value')
    .where('key', '=', DEFAULTS_KEY)
    .executeTakeFirst();
  // A value that no longer parses (edited by hand) falls back to the built-in defaults, part by part.
  const stored = parseJson(row?.value);
  // parseJson gives unknown; the schema below checks whatever it holds
  const parsed = PrivacyDefaultsSchema.safeParse({ ...BUILT_IN_DEFAULTS, ...(stored as object) });
  return parsed.success ? parsed.data : BUILT_IN_DEFAULTS;
}

async function readOwn(db: Kysely<Database>, clientIds: string[]): Promise<Map<string, StoredClientPrivacy>> {
  const rows =
    clientIds.length === 0
      ? []
      : await db
          .selectFrom('client_privacy')
          .select(['client_id', 'settings_json'])
          .where('client_id', 'in', clientIds)
          .execute();
  const out = new Map<string, StoredClientPrivacy>(clientIds.map((id) => [id, {}]));
  for (const row of rows) {
    const parsed = StoredClientPrivacy.safeParse(parseJson(row.settings_json));
    out.set(row.client_id, parsed.success ? parsed.data : {});
  }
  return out;
}

export function loadPrivacyDefaults(db: Kysely<Database>): Promise<PrivacyDefaults> {
  const entry = entryFor(db);
  if (!entry) return readDefaults(db);
  entry.defaults ??= readDefaults(db);
  return entry.defaults;
}

/** The settings in force for each of these clients (one query for those not cached). */
export async function loadPrivacyMany(
  db: Kysely<Database>,
  clientIds: string[],
): Promise<Map<string, EffectivePrivacy>> {
  const ids = [...new Set(clientIds)];
  const entry = entryFor(db);
  const missing = entry ? ids.filter((id) => !entry.clients.has(id)) : ids;
  if (missing.length > 0) {
    const read = readOwn(db, missing);
    if (entry)
      for (const id of missing)
        entry.clients.set(
          id,
          read.then((m) => m.get(id) ?? {}),
        );
    else {
      const defaults = await loadPrivacyDefaults(db);
      const own = await read;
      return new Map(ids.map((id) => [id, effectivePrivacy(defaults, own.get(id) ?? {})]));
    }
  }
  const defaults = await loadPrivacyDefaults(db);
  const out = new Map<string, EffectivePrivacy>();
  for (const id of ids) out.set(id, effectivePrivacy(defaults, await entry!.clients.get(id)!));
  return out;
}

export async function loadPrivacy(db: Kysely<Database>, clientId: string): Promise<EffectivePrivacy> {
  return (await loadPrivacyMany(db, [clientId])).get(clientId)!;
}

/** Drops this instance's cached settings (after a save, once its transaction committed). */
export function forgetPrivacy(db: Kysely<Database>): void {
  cache.delete(db);
}

// ---- writes -------------------------------------------------------------------------------------

export async function saveOwnPrivacy(
  db: Kysely<Database>,
  clientId: string,
  own: StoredClientPrivacy,
  now: number,
  reRedact: boolean,
): Promise<void> {
  const settings_json = JSON.stringify(own);
  await db
    .insertInto('client_privacy')
    .values({ client_id: clientId, settings_json, updated_at: now })
    .onConflict((oc) => oc.column('client_id').doUpdateSet({ settings_json, updated_at: now }))
    .execute();
  if (reRedact) await requestWalk(db, clientId, 're-redact', now);
}

export async function savePrivacyDefaults(db: Kysely<Database>, defaults: PrivacyDefaults): Promise<void> {
  const value = JSON.stringify(defaults);
  await db
    .insertInto('app_settings')
    .values({ key: DEFAULTS_KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/** Categories on in `after` and not in `before`: stored calls must be redacted for them. */
export function turnedOn(before: EffectivePrivacy, after: EffectivePrivacy): boolean {
  // Object.keys is string[]; the keys are the redaction object's own
  const categories = Object.keys(after.redaction) as (keyof RedactionCategories)[];
  if (categories.some((c) => after.redaction[c] && !before.redaction[c])) return true;
  // The caller's own number no longer kept: where it was said, it is redacted now.
  if (after.redaction.phones && before.keepCallerNumber && !after.keepCallerNumber) return true;
  return (
    after.redaction.nationalIds &&
    after.nationalIdCountries.some((c) => !before.nationalIdCountries.includes(c))
  );
}
