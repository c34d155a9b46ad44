/**
 * Start-up data: the default plans and an administrator. Idempotent: safe on every start and
 * from several instances at once (inserts ignore rows that already exist).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { generateTemporaryPassword, hashPassword } from './auth/passwords';
import type { Database } from './db/schema';

export const DEFAULT_PLANS = [
  { id: 'starter', name: 'Starter', monthly_price_cents: 4900, minutes_included: 500, sort_order: 1 },
  {
    id: 'professional',
    name: 'Professional',
    monthly_price_cents: 14900,
    minutes_included: 2000,
    sort_order: 2,
  },
  { id: 'business', name: 'Business', monthly_price_cents: 39900, minutes_included: 6000, sort_order: 3 },
  {
    id: 'enterprise',
    name: 'Enterprise',
    monthly_price_cents: 99900,
    minutes_included: 20000,
    sort_order: 4,
  },
] as const;

export async function seedPlans(db: Kysely<Database>): Promise<void> {
  await db
    .insertInto('plans')
    .values(DEFAULT_PLANS.map((p) => ({ ...p, stripe_price_id: null, paypal_plan_id: null, is_active: 1 })))
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export interface EnsureAdminResult {
  /** Set only when a random password was generated: it is printed once and never stored in clear. */
  generatedPassword: string | null;
  username: string;
}

/**
 * ADMIN_USERNAME/ADMIN_PASSWORD make sure that admin exists, is active and has that password, so
 * a restart with them always brings the console back. Without them, and with no admin at all,
 * `admin` is created with a random password.
 */
export async function ensureAdmin(
  db: Kysely<Database>,
  creds: { username: string | null; password: string | null },
  now: () => number = Date.now,
): Promise<EnsureAdminResult | null> {
  if (creds.username && creds.password) {
    const username = creds.username.toLowerCase();
    const existing = await db
      .selectFrom('admins')
      .select(['id'])
      .where('username', '=', username)
      .executeTakeFirst();
    const passwordHash = await hashPassword(creds.password);
    if (existing) {
      await db
        .updateTable('admins')
        .set({ password_hash: passwordHash, is_active: 1 })
        .where('id', '=', existing.id)
        .execute();
    } else {
      await createAdmin(db, { username, name: creds.username, passwordHash }, now);
    }
    return { username, generatedPassword: null };
  }
  const any = await db.selectFrom('admins').select(['id']).limit(1).executeTakeFirst();
  if (any) return null;
  const password = generateTemporaryPassword();
  await createAdmin(
    db,
    { username: 'admin', name: 'Administrator', passwordHash: await hashPassword(password) },
    now,
  );
  return { username: 'admin', generatedPassword: password };
}

export async function createAdmin(
  db: Kysely<Database>,
  admin: { username: string; name: string; passwordHash: string },
  now: () => number = Date.now,
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('admins')
    .values({
      id,
      username: admin.username.toLowerCase(),
      name: admin.name,
      password_hash: admin.passwordHash,
      created_at: now(),
      last_login_at: null,
    })
    .onConflict((oc) => oc.column('username').doNothing())
    .execute();
  return id;
}

/** Switches an admin back on (the CLI's way back in when the console has none); false if unknown. */
export async function activateAdmin(db: Kysely<Database>, username: string): Promise<boolean> {
  const result = await db
    .updateTable('admins')
    .set({ is_active: 1 })
    .where('username', '=', username.toLowerCase())
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
