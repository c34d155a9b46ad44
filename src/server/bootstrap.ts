/** Turns a Config into ready AppDeps: database opened, migrated and seeded; providers created. */
import { randomUUID } from 'node:crypto';
import { agencyDaysListener } from './agency/client-days';
import { createSessionStore } from './auth/sessions';
import { createWorkInFlight } from './background/in-flight';
import { createBrandCache } from './brand/brand-store';
import { createRunningSyncs } from './calls/ingest/running-syncs';
import { dailyRollupsListener } from './calls/write/rollups';
import { sealWebhookTokens } from './clients/webhook-token';
import type { Config } from './config';
import type { AppDeps } from './context';
import { verifyAppSecret } from './crypto/key-check';
import { createSecretBox } from './crypto/secrets';
import { type Db, openDb } from './db/connect';
import { migrateToLatest } from './db/migrate';
import { createLifecycle } from './http/lifecycle';
import { createMetrics } from './http/metrics';
import { createRateCounters } from './http/rate-counters';
import { createLiveHub } from './live/live-hub';
import { createAddressGuard } from './notifications/safe-http';
import { createVoiceProviders, type VoiceProviders } from './providers/voice/registry';
import type { VoiceProvider } from './providers/voice/types';
import { createSettledHistograms } from './quality/settled-histograms';
import { seedPlans } from './seed';

export interface DepsOverrides {
  db?: Db;
  /** Bland's adapter (most tests); `voices` replaces any of the three. */
  voice?: VoiceProvider;
  voices?: Partial<VoiceProviders>;
  now?: () => number;
}

export async function createDeps(
  config: Config,
  overrides: DepsOverrides = {},
): Promise<{ deps: AppDeps; close: () => Promise<void> }> {
  const database = overrides.db ?? openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const secrets = createSecretBox(config.appSecret);
  try {
    await migrateToLatest(database.db);
    await verifyAppSecret(database.db, secrets);
    // Webhook tokens a migration took out of the clear, sealed before anything is answered.
    await sealWebhookTokens(database.db, secrets);
    await seedPlans(database.db);
  } catch (error) {
    await database.close();
    throw error;
  }
  const now = overrides.now ?? Date.now;
  const deps: AppDeps = {
    config,
    db: database.db,
    dialect: database.dialect,
    sessions: createSessionStore(database.db, now),
    rateCounters: createRateCounters(database.db, now),
    secrets,
    // Recording URLs the platforms hand out pass the client webhooks' address checks, never
    // opened by CLIENT_WEBHOOKS_ALLOW_PRIVATE (only the configured platform URLs are trusted).
    voices: createVoiceProviders(
      config,
      { ...(overrides.voice ? { bland: overrides.voice } : {}), ...overrides.voices },
      createAddressGuard({ allowPrivate: false }),
    ),
    now,
    instanceId: randomUUID(),
    live: createLiveHub({
      db: database.db,
      listenUrl: database.url,
      log: { warn: (obj, msg) => console.warn(msg, obj) },
    }),
    // In order: the daily rollups are rebuilt first on a time-zone change (they rebuild the
    // agency's days with them); the agency's running totals are taken out on a client's deletion.
    clientChanges: [dailyRollupsListener, agencyDaysListener],
    metrics: createMetrics({ poolUse: database.poolUse }),
    lifecycle: createLifecycle(),
    syncs: createRunningSyncs(),
    classifiedClients: new Set(),
    inFlight: createWorkInFlight(),
    brandCache: createBrandCache(),
    settledHistograms: createSettledHistograms(),
  };
  return {
    deps,
    close: async () => {
      await deps.live.close();
      await database.close();
    },
  };
}
