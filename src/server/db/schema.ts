/**
 * Table types: the one place that knows column names. Timestamps are epoch milliseconds
 * (bigint in PostgreSQL, integer in SQLite) and booleans are 0/1 integers, so every query
 * reads the same on both dialects. Money is integer: cents for prices, micro-dollars for call cost.
 */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface AdminsTable {
  id: string;
  username: string;
  name: string;
  password_hash: string;
  created_at: number;
  last_login_at: number | null;
  /** 0: deactivated by another admin (013_agency_console); cannot sign in, sessions ended. */
  is_active: Generated<number>;
  /** 022_two_factor: see TwoFactorColumns. */
  two_factor_secret_enc: string | null;
  two_factor_pending_enc: string | null;
  two_factor_enabled_at: number | null;
  two_factor_last_step: number | null;
}

/** pending: a wizard draft; active: onboarded; demo: the public demo tenant (never listed, never logged in). */
export type OnboardingStatus = 'pending' | 'active' | 'demo';
export type ApiKeyStatus = 'valid' | 'invalid' | 'missing';

export interface ClientsTable {
  id: string;
  first_name: string;
  last_name: string;
  /** Lower-cased; unique across clients, including wizard drafts. */
  email: string;
  company_name: string | null;
  phone_number: string | null;
  job_title: string | null;
  company_website: string | null;
  industry: string | null;
  company_size: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zip_code: string | null;
  country: string | null;
  notes: string | null;
  account_type: string;
  /** Dollars per minute, in cents (0.15 $/min = 15). */
  per_minute_rate_cents: number;
  timezone: string;
  is_active: number;
  /** The voice platform its agents run on (016_voice_providers): 'bland' | 'vapi' | 'retell'. */
  provider: Generated<string>;
  /** AES-256-GCM ciphertext of the voice provider API key (see crypto/secrets.ts). */
  bland_api_key_enc: string | null;
  api_key_status: ApiKeyStatus;
  client_identifier: string | null;
  organization_id: string | null;
  /**
   * SHA-256 (hex) of the webhook token (≥128 random bits, base64url; the client's webhook URL is
   * PUBLIC_URL/api/webhooks/voice/{token}); deliveries are looked up by it (033_webhook_token_hash).
   */
  webhook_token_hash: string;
  /** The token sealed with the secret box, to show the URL (clients/webhook-token.ts). */
  webhook_token_enc: string | null;
  /** Optional signing secret for X-Webhook-Signature, encrypted like the API key. */
  webhook_secret_enc: string | null;
  /** When the first valid provider call reached the webhook (the wizard's test). */
  webhook_verified_at: number | null;
  onboarding_status: OnboardingStatus;
  profile_image_url: string | null;
  password_hash: string | null;
  stripe_customer_id: string | null;
  /** Sync watermark: created_at (ms) of the newest provider call already pulled. */
  sync_watermark: number | null;
  last_sync_at: number | null;
  created_at: number;
  updated_at: number;
  /** 022_two_factor: 1 when an Owner requires two-factor sign-in of every user of the client. */
  require_two_factor: Generated<number>;
  /** 024_number_privacy: 1 masks callers' numbers for every user until one call's is shown. */
  hide_numbers_until_shown: Generated<number>;
  /** 041_notify_from: digests cover periods from this day on (first sign-in, or wizard's "notify now"). */
  notify_from: number | null;
  /** 040_platform_disclosure: 1 lets the client and its callers see the voice platform named. */
  show_platform_details: Generated<number>;
  /** 040_platform_disclosure: 1 lets the client replace the platform API key itself. */
  client_manages_api_key: Generated<number>;
}

export type SessionKind = 'client' | 'admin';

export interface SessionsTable {
  /** sha256 of the cookie value; the raw id never touches the database. */
  id_hash: string;
  kind: SessionKind;
  subject_id: string;
  created_at: number;
  expires_at: number;
  last_seen_at: number;
  /** 021_client_users: the user a client session signs in; null (older sessions): the account login. */
  user_id: string | null;
  /** 023_session_devices: the id the sessions list shows (random; never derived from the cookie). */
  public_id: string;
  /** 023_session_devices: the browser's User-Agent and address at sign-in; null on older rows. */
  user_agent: string | null;
  ip: string | null;
}

/** 021_client_users: the people of a client (clients/users-repository.ts). */
export interface ClientUsersTable {
  id: string;
  client_id: string;
  /**
   * Lower-cased; unique per client, and across every client among users past their invitation
   * (035_address_identity: a pending invitation claims no address).
   */
  email: string;
  name: string;
  /** Null until an invited user accepts. */
  password_hash: string | null;
  role: 'owner' | 'manager' | 'viewer';
  /** JSON array of the permissions granted on top of the role. */
  permissions: string;
  status: 'invited' | 'active' | 'deactivated';
  /** 1: this user is the client's own login (clients.email and password_hash, kept equal). */
  is_account_login: number;
  /** 042: 1 while the password is one the agency chose; every client route but the change is refused. */
  must_change_password: Generated<number>;
  /** sha256 of the invitation's token; null once accepted, or never invited. */
  invite_token_hash: string | null;
  invite_expires_at: number | null;
  invited_by: string | null;
  created_at: number;
  updated_at: number;
  last_sign_in_at: number | null;
  /**
   * 022_two_factor (the same four on admins): the TOTP secret and the one being set up, both
   * sealed with the secret box; when it was turned on; the last time step a code was accepted at.
   */
  two_factor_secret_enc: string | null;
  two_factor_pending_enc: string | null;
  two_factor_enabled_at: number | null;
  two_factor_last_step: number | null;
  /** 025_user_notification_choices: 1 on, 0 off, null follows the account's switch. */
  notify_email: number | null;
  notify_sms: number | null;
  /** 025_user_notification_choices: the user's own number for texts (E.164); null: none. */
  sms_number: string | null;
}

/** 021_client_users: what a client's people did, for the activity log the client reads. */
export interface ClientActivityTable {
  id: string;
  client_id: string;
  at: number;
  user_id: string | null;
  /** sign_in | sign_in_failed | invite | role_change | user_removed | … */
  action: string;
  /** JSON of what the line needs to be read without the user row (names, e-mails, before/after). */
  detail: string | null;
}

export type CallSource = 'webhook' | 'sync' | 'sample';
export type CallStatus = 'completed' | 'failed' | 'transferred' | 'active' | 'unknown';

export interface CallsTable {
  id: string;
  client_id: string;
  provider_call_id: string;
  from_number: string;
  to_number: string;
  duration_seconds: number;
  status: CallStatus;
  /** Pathway name when resolved, else the pathway id; '' when the call had none. */
  pathway: string;
  pathway_id: string | null;
  created_at: number;
  recording_url: string | null;
  /** JSON text of [{role, text, timestamp}]. */
  transcript: string | null;
  /** Micro-dollars, from the client's rate when the call arrived; kept when the rate changes. */
  cost_micros: number;
  /** The client's rate when the call first arrived; later updates of the call keep it. */
  per_minute_rate_cents: number;
  /** Warm-transfer proxy legs: stored, but kept out of stats and rollups. */
  is_proxy: number;
  /** 0 while the provider has not confirmed a call a webhook announced (004_unverified_calls). */
  verified: Generated<number>;
  source: CallSource;
  raw_payload: string | null;
  updated_at: number;
  /** What the provider says the call achieved (005_call_insights); null when it never said. */
  summary: string | null;
  answered_by: string | null;
  call_ended_by: string | null;
  error_message: string | null;
  disposition_tag: string | null;
  /** JSON objects, each within INSIGHT_JSON_MAX_BYTES. */
  analysis_json: string | null;
  variables_json: string | null;
  /** What the provider charged the agency, micro-dollars; the client's bill is cost_micros. */
  provider_price_micros: number | null;
  /** The client's outcome the call matched ("Other" when none), 006_outcomes. */
  outcome: string | null;
  /** The client's outcomes version it was classified under; null: never. */
  outcome_version: number | null;
  /** JSON array of why a person should look at the call; null when nothing calls for it. */
  attention_reasons: string | null;
  /** When and by whom (an e-mail or an admin's name) it was marked handled. */
  handled_at: number | null;
  handled_by: string | null;
  /** When retention removed the transcript, summary and stored payload (028_caller_privacy). */
  transcript_cleared_at: number | null;
  /** When retention removed the recording's link (028_caller_privacy). */
  recording_cleared_at: number | null;
  /** contract/quality.ts CallQuality as JSON; null: nothing to measure (029_conversation_quality). */
  quality_json: string | null;
  quality_precision: string | null;
  /** Copies of figures in quality_json the log filters on and worst-call lists sort by. */
  quality_latency_p90_ms: number | null;
  quality_interruptions_caller: number | null;
  quality_dead_air_ms: number | null;
}

/** 006_outcomes: a client's ordered outcomes (re-classifying its calls: client_walks). */
export interface ClientOutcomesTable {
  client_id: string;
  outcomes_json: string;
  version: number;
  /** contract/quality.ts QualityThresholds as JSON; null: the defaults (029_conversation_quality). */
  quality_thresholds_json: string | null;
  updated_at: number;
}

/** Outcome sums beside the status rollups: same buckets, days and sums, keyed by outcome. */
export interface CallOutcomeRollupsTable {
  client_id: string;
  bucket_start: number;
  outcome: string;
  pathway: string;
  call_count: number;
  total_seconds: number;
  total_cost_micros: number;
}

export interface CallOutcomeRollupsDailyTable {
  client_id: string;
  day: string;
  outcome: string;
  pathway: string;
  call_count: number;
  total_seconds: number;
  total_cost_micros: number;
}

export interface DeletedCallsTable {
  client_id: string;
  provider_call_id: string;
  deleted_at: number;
}

/** Per client, per 15-minute bucket, per status and pathway: what stats and charts read. */
export interface CallRollupsTable {
  client_id: string;
  bucket_start: number;
  status: string;
  pathway: string;
  call_count: number;
  total_seconds: number;
  total_cost_micros: number;
}

/** The same sums per local day (YYYY-MM-DD in the client's time zone). */
export interface CallRollupsDailyTable {
  client_id: string;
  day: string;
  status: string;
  pathway: string;
  call_count: number;
  total_seconds: number;
  total_cost_micros: number;
}

export interface PathwayNamesTable {
  client_id: string;
  pathway_id: string;
  name: string;
  fetched_at: number;
}

export interface PlansTable {
  id: string;
  name: string;
  monthly_price_cents: number;
  minutes_included: number;
  stripe_price_id: string | null;
  paypal_plan_id: string | null;
  sort_order: number;
  is_active: number;
}

export interface SubscriptionsTable {
  id: string;
  client_id: string;
  plan_id: string;
  /** active | incomplete | past_due | canceled | pending (PayPal awaiting approval) */
  status: string;
  /** 'card' | 'paypal' */
  provider: string;
  card_brand: string | null;
  card_last4: string | null;
  card_exp: string | null;
  stripe_subscription_id: string | null;
  paypal_subscription_id: string | null;
  current_period_end: number | null;
  cancel_at_period_end: number;
  /** A renewal invoice waiting for the customer's authentication (008_payment_action). */
  action_invoice_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface PaymentsTable {
  id: string;
  client_id: string;
  provider: string;
  provider_id: string | null;
  plan_id: string;
  amount_cents: number;
  status: string;
  idempotency_key: string;
  created_at: number;
}

/** Payment-provider webhook events already processed (replays are ignored). */
export interface ProviderEventsTable {
  provider: string;
  event_id: string;
  received_at: number;
}

export interface WebhookDeliveriesTable {
  id: string;
  client_id: string;
  received_at: number;
  /** call | event | invalid */
  kind: string;
  provider_call_id: string | null;
  outcome: string;
  /** Why it was refused or left unconfirmed, in words (013_agency_console). */
  detail: string | null;
  /** The body as received, kept for refused and unconfirmed deliveries so they can be replayed. */
  raw_body: string | null;
  /** JSON of the signature headers it came with, so a replay checks them again. */
  signature_headers: string | null;
  /** The delivery this one replayed. */
  replay_of: string | null;
}

/** 013_agency_console: per client and local day, what the agency's portfolio reads. */
export interface ClientCallDaysTable {
  day: string;
  client_id: string;
  call_count: number;
  total_seconds: number;
  total_cost_micros: number;
  total_provider_micros: number;
  answered_count: number;
  failed_count: number;
  /** 015_running_totals: the client's sums through this day (calls/client-days.ts). */
  cum_calls: number;
  cum_seconds: number;
  cum_cost_micros: number;
  cum_provider_micros: number;
  cum_answered: number;
  cum_failed: number;
}

/** 015_running_totals: every client's calls per day (the portfolio's chart), in a few shards. */
export interface AgencyCallDaysTable {
  day: string;
  shard: number;
  call_count: number;
  total_cost_micros: number;
  total_provider_micros: number;
}

/** 013_agency_console: every sync of a client's calls. */
export interface SyncRunsTable {
  id: string;
  client_id: string;
  /** 'client' | 'admin:{adminId}' | 'sync-all:{adminId}' | 'system' */
  started_by: string;
  started_at: number;
  finished_at: number | null;
  created: Generated<number>;
  updated: Generated<number>;
  unfetched: Generated<number>;
  error: string | null;
  /** 020_sync_runs_status: running | succeeded | failed | interrupted */
  status: Generated<SyncRunStatusValue>;
  /** Renewed by the process running the sync; a stale one means that process is gone. */
  heartbeat_at: number | null;
  /** Provider errors retried, per HTTP status, as JSON ({"429": 12}). */
  retried: string | null;
}

export type SyncRunStatusValue = 'running' | 'succeeded' | 'failed' | 'interrupted';

export interface NotificationPrefsTable {
  client_id: string;
  email_notifications: number;
  sms_notifications: number;
  webhook_notifications: number;
  monthly_reports: number;
  /** off | daily | weekly (010_notification_schedule) */
  digest: Generated<string>;
  /** Local hours texts wait through: from quiet_start to quiet_end. */
  quiet_start: Generated<number>;
  quiet_end: Generated<number>;
  updated_at: number;
  /** 041_notify_from: minutes after a call ended it may still alert; null: the default (60). */
  alert_window_minutes: number | null;
}

/** Messages waiting to be sent, being sent, or sent (007_outbox; notifications/outbox.ts). */
export interface OutboxTable {
  id: string;
  client_id: string | null;
  channel: string;
  topic: string;
  dedupe_key: string;
  payload_json: string;
  status: string;
  attempts: number;
  next_attempt_at: number;
  claimed_until: number | null;
  claimed_by: string | null;
  last_error: string | null;
  last_status_code: number | null;
  created_at: number;
  sent_at: number | null;
}
export type OutboxRow = Selectable<OutboxTable>;

/** A client's webhook endpoint for call events (009_client_webhooks). */
export interface ClientWebhooksTable {
  client_id: string;
  url: string;
  secret_encrypted: string;
  created_at: number;
  updated_at: number;
}

export interface AuditLogTable {
  id: Generated<number>;
  admin_id: string;
  action: string;
  client_id: string | null;
  detail: string | null;
  created_at: number;
}

/** Fixed-window counters shared by every instance (failed logins, webhook rate limits). */
export interface RateCountersTable {
  key: string;
  window_start: number;
  count: number;
  /** The count of the window before window_start (sliding windows). */
  previous_count: Generated<number>;
  /** Epoch ms of the last hit. */
  last_at: Generated<number>;
}

/** 012_ui_preferences: a person's screen choices; `owner` is 'client:{id}' or 'admin:{id}'. */
export interface UiPreferencesTable {
  owner: string;
  /** JSON array of the call log's visible columns; null: the defaults. */
  call_log_columns: string | null;
  updated_at: number;
}

export interface Database {
  admins: AdminsTable;
  clients: ClientsTable;
  sessions: SessionsTable;
  calls: CallsTable;
  deleted_calls: DeletedCallsTable;
  call_rollups: CallRollupsTable;
  call_rollups_daily: CallRollupsDailyTable;
  client_outcomes: ClientOutcomesTable;
  call_outcome_rollups: CallOutcomeRollupsTable;
  call_outcome_rollups_daily: CallOutcomeRollupsDailyTable;
  pathway_names: PathwayNamesTable;
  plans: PlansTable;
  subscriptions: SubscriptionsTable;
  payments: PaymentsTable;
  provider_events: ProviderEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  notification_prefs: NotificationPrefsTable;
  audit_log: AuditLogTable;
  rate_counters: RateCountersTable;
  app_settings: AppSettingsTable;
  outbox: OutboxTable;
  client_webhooks: ClientWebhooksTable;
  ui_preferences: UiPreferencesTable;
  client_call_days: ClientCallDaysTable;
  agency_call_days: AgencyCallDaysTable;
  sync_runs: SyncRunsTable;
  live_events: LiveEventsTable;
  client_users: ClientUsersTable;
  client_activity: ClientActivityTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  two_factor_challenges: TwoFactorChallengesTable;
  agency_brand: AgencyBrandTable;
  brand_assets: BrandAssetsTable;
  client_privacy: ClientPrivacyTable;
  erasure_requests: ErasureRequestsTable;
  quality_rollups_daily: QualityRollupsDailyTable;
  leases: LeasesTable;
  client_walks: ClientWalksTable;
  quality_rollup_versions: QualityRollupVersionsTable;
  sms_numbers: SmsNumbersTable;
}

/** 034_sms_numbers: a number a client's texts may go to once verified (notifications/sms-numbers.ts). */
export interface SmsNumbersTable {
  client_id: string;
  /** E.164. */
  number: string;
  /** Null until a code sent to the number was confirmed: nothing is texted there before. */
  verified_at: number | null;
  /** The user who confirmed it. */
  verified_by: string | null;
  /** sha256 of the pending code; null when none is pending. */
  code_hash: string | null;
  code_expires_at: number | null;
  code_attempts_left: number;
  updated_at: number;
}

/** 029_conversation_quality: per client, local day and metric, calls per value (quality/quality-rollups.ts). */
export interface QualityRollupsDailyTable {
  client_id: string;
  day: string;
  metric: string;
  /** JSON array of [grid value, calls], ascending by value. */
  histogram_json: string;
  /** The calls the histogram counts. */
  call_count: number;
}

/** 032_quality_rollup_versions: bumped with any change to a settled day's quality rollups (quality/settled-histograms.ts). */
export interface QualityRollupVersionsTable {
  client_id: string;
  version: number;
}

/** 044_leases_and_walks: a named claim with an expiry and its holder (background/lease.ts). */
export interface LeasesTable {
  name: string;
  owner: string;
  until: number;
}

/** 044_leases_and_walks: where a walk over a client's calls stands (background/client-walk.ts). */
export interface ClientWalksTable {
  client_id: string;
  kind: 'reclassify' | 'quality-backfill' | 're-redact';
  /** When the walk was last asked for; a run finishing an older request leaves it pending. */
  requested_at: number | null;
  /** The last call id walked; a resumable walk goes on after it. */
  after_id: string | null;
  done: Generated<number>;
  total: Generated<number>;
  /** Null while pending. */
  finished_at: number | null;
}

/** 028_caller_privacy: a client's own privacy settings and the runs they start (privacy/). */
export interface ClientPrivacyTable {
  client_id: string;
  /** JSON of privacy/privacy-settings.ts `StoredClientPrivacy`. */
  settings_json: string;
  updated_at: number;
  /** Retention's cut-offs already applied: calls created before them are cleared. */
  transcripts_cleared_before: number | null;
  recordings_cleared_before: number | null;
  calls_cleared_before: number | null;
}

/** 028_caller_privacy: one caller's erasure and what it removed (its receipt). */
export interface ErasureRequestsTable {
  id: string;
  client_id: string;
  subject_kind: 'phone' | 'email';
  /** The E.164 number or the lower-cased address searched for: the receipt must name it. */
  subject: string;
  /** Who asked, as people read it ("Dana Owner <dana@…>", "Admin: Sam"). */
  requested_by: string;
  state: 'running' | 'done' | 'failed';
  calls: Generated<number>;
  copies: Generated<number>;
  /** JSON array of contract/privacy.ts ErasureProviderResult, plus each call's answer. */
  providers_json: string;
  created_at: number;
  finished_at: number | null;
}

/** 026_agency_brand: the one saved brand (id 1); `settings` is contract/brand.ts BrandSettings as JSON. */
export interface AgencyBrandTable {
  id: number;
  settings: string;
  updated_at: number;
  updated_by: string | null;
}

/** 026_agency_brand: the re-encoded logo (light, dark) and app icon. */
export interface BrandAssetsTable {
  variant: string;
  content_type: string;
  bytes: Buffer;
  sha256: string;
  width: number;
  height: number;
  updated_at: number;
}

/** 014_live_events: what changed for a client, for its live streams (live/live-hub.ts). */
export interface LiveEventsTable {
  id: Generated<number>;
  client_id: string;
  /** 'call' (created, updated, deleted) | 'calls' (many changed at once) */
  kind: string;
  /** JSON of the event's data (contract/live.ts). */
  payload: string;
  created_at: number;
}

/** 022_two_factor: who a recovery code or a pending sign-in belongs to. */
export type TwoFactorSubjectKind = 'client_user' | 'admin';

/** 022_two_factor: ten single-use codes per person; only their sha256. */
export interface TwoFactorRecoveryCodesTable {
  id: string;
  subject_kind: TwoFactorSubjectKind;
  subject_id: string;
  code_hash: string;
  used_at: number | null;
  created_at: number;
}

/** 022_two_factor: a sign-in awaiting its code (five minutes); the sha256 of the browser's token. */
export interface TwoFactorChallengesTable {
  id_hash: string;
  kind: TwoFactorSubjectKind;
  subject_id: string;
  created_at: number;
  expires_at: number;
}

/** Values every instance on the database shares (002_app_settings). */
export interface AppSettingsTable {
  key: string;
  value: string;
}

export type ClientRow = Selectable<ClientsTable>;
export type NewClientRow = Insertable<ClientsTable>;
export type ClientUpdate = Updateable<ClientsTable>;
export type CallRow = Selectable<CallsTable>;
export type NewCallRow = Insertable<CallsTable>;
export type PlanRow = Selectable<PlansTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type AdminRow = Selectable<AdminsTable>;

export type ClientUserRow = Selectable<ClientUsersTable>;
