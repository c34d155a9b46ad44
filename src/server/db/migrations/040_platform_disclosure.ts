/**
 * What a client is told about the agency's voice platform:
 * - `show_platform_details`: 1 lets the client's screens and its callers' receipts name the
 *   platform and its terms; 0 (the default) keeps them vendor-free, since the platform is the
 *   agency's supplier, not the client's.
 * - `client_manages_api_key`: 1 lets the client replace the platform API key itself; 0 (the
 *   default) leaves the key to the agency.
 * Existing clients get the defaults, like new ones: the agency turns either on per client.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('clients')
    .addColumn('show_platform_details', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('clients')
    .addColumn('client_manages_api_key', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
