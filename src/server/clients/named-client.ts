/** The client an admin names in a path, loaded once: "Client not found" (404) is written here only. */
import type { Kysely } from 'kysely';
import { MESSAGES } from '../../contract/admin';
import type { ClientRow, Database } from '../db/schema';
import { notFound } from '../http/errors';
import { findClient } from './clients-repository';

/** The client an admin names, loaded; "Client not found" (404) when there is none. */
export async function namedClient(db: Kysely<Database>, clientId: string): Promise<ClientRow> {
  const client = await findClient(db, clientId);
  if (!client) throw notFound(MESSAGES.clientNotFound);
  return client;
}
