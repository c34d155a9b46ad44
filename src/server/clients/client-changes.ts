/**
 * What clients/ announces to the modules that keep data derived from a client: its deletion and
 * a change of its time zone. clients/ never touches their tables itself; each such module exports
 * a listener, and the composition root (bootstrap.ts, `deps.clientChanges`) lists them in order.
 * Each runs in the announcing transaction, so the client and what is derived from it change
 * together or not at all.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

export interface ClientChangeListener {
  /** Before the client's row is deleted (its derived rows may carry no foreign key). */
  clientDeleted?(trx: Kysely<Database>, clientId: string): Promise<void>;
  /** After the client's new time zone is stored: local days move with it. */
  timeZoneChanged?(trx: Kysely<Database>, clientId: string, timeZone: string): Promise<void>;
}

export async function announceClientDeleted(
  trx: Kysely<Database>,
  listeners: readonly ClientChangeListener[],
  clientId: string,
): Promise<void> {
  for (const listener of listeners) await listener.clientDeleted?.(trx, clientId);
}

export async function announceTimeZoneChanged(
  trx: Kysely<Database>,
  listeners: readonly ClientChangeListener[],
  clientId: string,
  timeZone: string,
): Promise<void> {
  for (const listener of listeners) await listener.timeZoneChanged?.(trx, clientId, timeZone);
}
