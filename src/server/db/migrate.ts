/**
 * Runs the migrations in order; idempotent (Kysely records what was applied). Under a lock, so
 * instances started together apply each once: on PostgreSQL Kysely's advisory lock,
 * held while one instance migrates in a transaction; on SQLite an immediate transaction around
 * the whole run (SQLite's write lock is the file's, so a second process waits for it).
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator, SqliteAdapter, sql } from 'kysely';
import * as initial from './migrations/001_initial';
import * as appSettings from './migrations/002_app_settings';
import * as slidingCounters from './migrations/003_sliding_counters';
import * as unverifiedCalls from './migrations/004_unverified_calls';
import * as callInsights from './migrations/005_call_insights';
import * as outcomes from './migrations/006_outcomes';
import * as outbox from './migrations/007_outbox';
import * as paymentAction from './migrations/008_payment_action';
import * as clientWebhooks from './migrations/009_client_webhooks';
import * as notificationSchedule from './migrations/010_notification_schedule';
import * as callSearch from './migrations/011_call_search';
import * as uiPreferences from './migrations/012_ui_preferences';
import * as agencyConsole from './migrations/013_agency_console';
import * as liveEvents from './migrations/014_live_events';
import * as runningTotals from './migrations/015_running_totals';
import * as voiceProviders from './migrations/016_voice_providers';
import * as runningTotalsCovered from './migrations/017_running_totals_covered';
import * as callSearchByClient from './migrations/018_call_search_by_client';
import * as callSearchFtsByClient from './migrations/019_call_search_fts_by_client';
import * as syncRunsStatus from './migrations/020_sync_runs_status';
import * as clientUsers from './migrations/021_client_users';
import * as twoFactor from './migrations/022_two_factor';
import * as sessionDevices from './migrations/023_session_devices';
import * as numberPrivacy from './migrations/024_number_privacy';
import * as userNotificationChoices from './migrations/025_user_notification_choices';
import * as agencyBrand from './migrations/026_agency_brand';
import * as activityLogOrder from './migrations/027_activity_log_order';
import * as callerPrivacy from './migrations/028_caller_privacy';
import * as conversationQuality from './migrations/029_conversation_quality';
import * as callSearchNewestFirst from './migrations/030_call_search_newest_first';
import * as qualityRollupVersions from './migrations/032_quality_rollup_versions';
import * as webhookTokenHash from './migrations/033_webhook_token_hash';
import * as smsNumbers from './migrations/034_sms_numbers';
import * as addressIdentity from './migrations/035_address_identity';
import * as callSearchTermsByClient from './migrations/038_call_search_terms_by_client';
import * as platformDisclosure from './migrations/040_platform_disclosure';
import * as notifyFrom from './migrations/041_notify_from';
import * as mustChangePassword from './migrations/042_must_change_password';
import * as leasesAndWalks from './migrations/044_leases_and_walks';
import type { Database } from './schema';

// Listed by hand rather than read from disk, so the bundle and tsx agree on what exists.
const migrations: Record<string, Migration> = {
  '001_initial': initial,
  '002_app_settings': appSettings,
  '003_sliding_counters': slidingCounters,
  '004_unverified_calls': unverifiedCalls,
  '005_call_insights': callInsights,
  '006_outcomes': outcomes,
  '007_outbox': outbox,
  '008_payment_action': paymentAction,
  '009_client_webhooks': clientWebhooks,
  '010_notification_schedule': notificationSchedule,
  '011_call_search': callSearch,
  '012_ui_preferences': uiPreferences,
  '013_agency_console': agencyConsole,
  '014_live_events': liveEvents,
  '015_running_totals': runningTotals,
  '016_voice_providers': voiceProviders,
  '017_running_totals_covered': runningTotalsCovered,
  '018_call_search_by_client': callSearchByClient,
  '019_call_search_fts_by_client': callSearchFtsByClient,
  '020_sync_runs_status': syncRunsStatus,
  '021_client_users': clientUsers,
  '022_two_factor': twoFactor,
  '023_session_devices': sessionDevices,
  '024_number_privacy': numberPrivacy,
  '025_user_notification_choices': userNotificationChoices,
  '026_agency_brand': agencyBrand,
  '027_activity_log_order': activityLogOrder,
  '028_caller_privacy': callerPrivacy,
  '029_conversation_quality': conversationQuality,
  '030_call_search_newest_first': callSearchNewestFirst,
  '032_quality_rollup_versions': qualityRollupVersions,
  '033_webhook_token_hash': webhookTokenHash,
  '034_sms_numbers': smsNumbers,
  '035_address_identity': addressIdentity,
  '038_call_search_terms_by_client': callSearchTermsByClient,
  '040_platform_disclosure': platformDisclosure,
  '041_notify_from': notifyFrom,
  '042_must_change_password': mustChangePassword,
  '044_leases_and_walks': leasesAndWalks,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** How long a second SQLite process waits for the first one's migrations (the normal wait is 5 s). */
const SQLITE_MIGRATION_WAIT_MS = 10 * 60 * 1000;

/** Answers the names of the migrations this call applied (none when another instance had). */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  if (sqlite) {
    // One connection per process: the transaction begun here is the one the migrator runs in.
    await sql`pragma busy_timeout = ${sql.lit(SQLITE_MIGRATION_WAIT_MS)}`.execute(db);
    try {
      await sql`begin immediate`.execute(db);
    } finally {
      await sql`pragma busy_timeout = 5000`.execute(db);
    }
  }
  let outcome: Awaited<ReturnType<Migrator['migrateToLatest']>>;
  try {
    outcome = await migrator.migrateToLatest();
  } catch (error) {
    outcome = { error };
  }
  const failed = outcome.results?.find((r) => r.status === 'Error');
  if (sqlite) await sql.raw(outcome.error || failed ? 'rollback' : 'commit').execute(db);
  if (outcome.error || failed) {
    const { error } = outcome;
    const reason = error instanceof Error ? error.message : String(error ?? failed?.migrationName);
    throw new Error(`Database migration failed: ${reason}`);
  }
  return (outcome.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export interface MigrationState {
  /** Known to this version and not applied yet, in order. */
  pending: string[];
  /** Applied by a newer version this one does not know (it refuses to migrate). */
  unknown: string[];
  applied: number;
}

/** What `npm run migrate -- --check` reports and /readyz checks; reads only. */
export async function migrationState(db: Kysely<Database>): Promise<MigrationState> {
  const known = await new Migrator({ db, provider }).getMigrations();
  const names = new Set(Object.keys(migrations));
  const appliedNames = await appliedMigrationNames(db);
  return {
    pending: known.filter((m) => m.executedAt === undefined).map((m) => m.name),
    unknown: appliedNames.filter((name) => !names.has(name)),
    applied: appliedNames.length,
  };
}

async function appliedMigrationNames(db: Kysely<Database>): Promise<string[]> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((t) => t.name === 'kysely_migration')) return [];
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.map((r) => r.name);
}

/** Every migration this version knows, in order (the backup manifest names the last applied). */
export const KNOWN_MIGRATIONS: readonly string[] = Object.keys(migrations);
