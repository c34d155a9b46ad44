/**
 * The agency's brand, one row for every instance to read:
 * - `agency_brand`: the saved settings as JSON (contract/brand.ts `BrandSettings`, validated on
 *   every read), who saved them and when. No row: AGENCY_NAME and the product's colours.
 * - `brand_assets`: the logo for light and for dark backgrounds and the app icon, as the server
 *   re-encoded them (never the uploaded bytes), with their sha256 so an address changes with the
 *   image and browsers may cache it for a year.
 */
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('agency_brand')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .execute();
  // Bytes are `bytea` on PostgreSQL; SQLite calls the same thing `blob`.
  const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
  await db.schema
    .createTable('brand_assets')
    .addColumn('variant', 'text', (c) => c.primaryKey())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('bytes', bytes, (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('brand_assets').execute();
  await db.schema.dropTable('agency_brand').execute();
}
