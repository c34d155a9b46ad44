/** Runs the migrations in order; idempotent (Kysely records what was applied). */
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
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
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? failed?.migrationName);
    throw new Error(`Database migration failed: ${reason}`);
  }
}
