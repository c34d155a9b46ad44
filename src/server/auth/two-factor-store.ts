/**
 * What two-factor sign-in keeps (022_two_factor): the sealed secrets on `client_users` and
 * `admins` (the same four columns on both), the hashed recovery codes and the pending sign-ins.
 * Single use is decided by the database: a step or a recovery code is claimed by a conditional
 * update, so two requests with the same code cannot both pass. Who may call what is the routes'.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { TWO_FACTOR_CHALLENGE_TTL_MS } from '../../contract/two-factor';
import { randomToken, sha256Hex } from '../crypto/secrets';
import type { Database, TwoFactorSubjectKind } from '../db/schema';

export interface TwoFactorSubject {
  kind: TwoFactorSubjectKind;
  id: string;
}

export interface TwoFactorState {
  secretEnc: string | null;
  pendingEnc: string | null;
  enabledAt: number | null;
  lastStep: number | null;
}

const TABLE_OF = { client_user: 'client_users', admin: 'admins' } as const;

export async function twoFactorStateOf(
  db: Kysely<Database>,
  subject: TwoFactorSubject,
): Promise<TwoFactorState | undefined> {
  const row = await db
    .selectFrom(TABLE_OF[subject.kind])
    .select([
      'two_factor_secret_enc',
      'two_factor_pending_enc',
      'two_factor_enabled_at',
      'two_factor_last_step',
    ])
    .where('id', '=', subject.id)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    secretEnc: row.two_factor_secret_enc,
    pendingEnc: row.two_factor_pending_enc,
    enabledAt: row.two_factor_enabled_at === null ? null : Number(row.two_factor_enabled_at),
    lastStep: row.two_factor_last_step === null ? null : Number(row.two_factor_last_step),
  };
}

/** A new secret being set up replaces any earlier one not yet confirmed. */
export async function setPendingSecret(
  db: Kysely<Database>,
  subject: TwoFactorSubject,
  sealed: string,
): Promise<void> {
  await db
    .updateTable(TABLE_OF[subject.kind])
    .set({ two_factor_pending_enc: sealed })
    .where('id', '=', subject.id)
    .execute();
}

/** Turns it on with the confirmed secret, and replaces the recovery codes with these. */
export async function enableTwoFactor(
  trx: Kysely<Database>,
  subject: TwoFactorSubject,
  change: { sealedSecret: string; step: number; codeHashes: string[] },
  now: number,
): Promise<void> {
  await trx
    .updateTable(TABLE_OF[subject.kind])
    .set({
      two_factor_secret_enc: change.sealedSecret,
      two_factor_pending_enc: null,
      two_factor_enabled_at: now,
      two_factor_last_step: change.step,
    })
    .where('id', '=', subject.id)
    .execute();
  await deleteRecoveryCodes(trx, subject);
  await trx
    .insertInto('two_factor_recovery_codes')
    .values(
      change.codeHashes.map((code_hash) => ({
        id: randomUUID(),
        subject_kind: subject.kind,
        subject_id: subject.id,
        code_hash,
        used_at: null,
        created_at: now,
      })),
    )
    .execute();
}

/** Off: the secret, the one being set up and every recovery code are gone. */
export async function disableTwoFactor(trx: Kysely<Database>, subject: TwoFactorSubject): Promise<void> {
  await trx
    .updateTable(TABLE_OF[subject.kind])
    .set({
      two_factor_secret_enc: null,
      two_factor_pending_enc: null,
      two_factor_enabled_at: null,
      two_factor_last_step: null,
    })
    .where('id', '=', subject.id)
    .execute();
  await deleteRecoveryCodes(trx, subject);
}

export async function deleteRecoveryCodes(db: Kysely<Database>, subject: TwoFactorSubject): Promise<void> {
  await db
    .deleteFrom('two_factor_recovery_codes')
    .where('subject_kind', '=', subject.kind)
    .where('subject_id', '=', subject.id)
    .execute();
}

/** Records `step` as the last accepted one; false when that step (or a later one) was used already. */
export async function claimStep(
  db: Kysely<Database>,
  subject: TwoFactorSubject,
  step: number,
): Promise<boolean> {
  const result = await db
    .updateTable(TABLE_OF[subject.kind])
    .set({ two_factor_last_step: step })
    .where('id', '=', subject.id)
    .where('two_factor_enabled_at', 'is not', null)
    .where((eb) => eb.or([eb('two_factor_last_step', 'is', null), eb('two_factor_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Spends a recovery code; false when it is not one of the subject's, or was spent already. */
export async function spendRecoveryCode(
  db: Kysely<Database>,
  subject: TwoFactorSubject,
  codeHash: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('two_factor_recovery_codes')
    .set({ used_at: now })
    .where('subject_kind', '=', subject.kind)
    .where('subject_id', '=', subject.id)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A pending sign-in; the raw token goes to the browser's cookie, only its sha256 is kept. */
export async function createChallenge(
  db: Kysely<Database>,
  subject: TwoFactorSubject,
  now: number,
): Promise<string> {
  const raw = randomToken(32);
  // Expired ones are swept here, as sessions are: no job to forget.
  await db.deleteFrom('two_factor_challenges').where('expires_at', '<=', now).execute();
  await db
    .insertInto('two_factor_challenges')
    .values({
      id_hash: sha256Hex(raw),
      kind: subject.kind,
      subject_id: subject.id,
      created_at: now,
      expires_at: now + TWO_FACTOR_CHALLENGE_TTL_MS,
    })
    .execute();
  return raw;
}

/** The subject of a live pending sign-in of this kind, or undefined. */
export async function findChallenge(
  db: Kysely<Database>,
  kind: TwoFactorSubjectKind,
  raw: string | undefined,
  now: number,
): Promise<TwoFactorSubject | undefined> {
  if (!raw || raw.length > 200) return undefined;
  const row = await db
    .selectFrom('two_factor_challenges')
    .select(['subject_id', 'expires_at'])
    .where('id_hash', '=', sha256Hex(raw))
    .where('kind', '=', kind)
    .executeTakeFirst();
  if (!row || Number(row.expires_at) <= now) return undefined;
  return { kind, id: row.subject_id };
}

export async function deleteChallenge(db: Kysely<Database>, raw: string | undefined): Promise<void> {
  if (!raw) return;
  await db.deleteFrom('two_factor_challenges').where('id_hash', '=', sha256Hex(raw)).execute();
}

const ADMINS_REQUIRE_KEY = 'admins_require_two_factor';

/** The agency's rule: every admin must use two-factor sign-in. */
export async function adminsRequireTwoFactor(db: Kysely<Database>): Promise<boolean> {
  const row = await db
    .selectFrom('app_settings')
    .select('value')
    .where('key', '=', ADMINS_REQUIRE_KEY)
    .executeTakeFirst();
  return row?.value === '1';
}

export async function setAdminsRequireTwoFactor(db: Kysely<Database>, required: boolean): Promise<void> {
  const value = required ? '1' : '0';
  await db
    .insertInto('app_settings')
    .values({ key: ADMINS_REQUIRE_KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}
