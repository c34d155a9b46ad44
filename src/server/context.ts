/**
 * What every route module may use, built once by buildApp and reached as `app.deps`.
 * Outside services are behind interfaces here so tests can point them at the simulators.
 */
import type { Kysely } from 'kysely';
import type { SessionStore } from './auth/sessions';
import type { WorkInFlight } from './background/in-flight';
import type { BrandCache } from './brand/brand-store';
import type { RunningSyncs } from './calls/ingest/running-syncs';
import type { ClientChangeListener } from './clients/client-changes';
import type { Config } from './config';
import type { SecretBox } from './crypto/secrets';
import type { Dialect } from './db/connect';
import type { Database } from './db/schema';
import type { Lifecycle } from './http/lifecycle';
import type { Metrics } from './http/metrics';
import type { RateCounters } from './http/rate-counters';
import type { LiveHub } from './live/live-hub';
import type { VoiceProviders } from './providers/voice/registry';
import type { SettledHistograms } from './quality/settled-histograms';

export interface AppDeps {
  config: Config;
  db: Kysely<Database>;
  dialect: Dialect;
  sessions: SessionStore;
  rateCounters: RateCounters;
  secrets: SecretBox;
  /** One adapter per voice platform; a client's is voiceOf(deps.voices, client). */
  voices: VoiceProviders;
  /** Injected so tests can move time; Date.now in production. */
  now: () => number;
  /** Identifies this process in locks that live in the database (sync leases). */
  instanceId: string;
  /** New live events, handed to this instance's open streams. */
  live: LiveHub;
  /** The modules keeping data derived from a client, told of its deletion and time-zone change. */
  clientChanges: readonly ClientChangeListener[];
  /** Prometheus metrics: features record into it, GET /metrics reads it. */
  metrics: Metrics;
  /** Starting, ready or stopping: what /readyz answers (main.ts moves it along). */
  lifecycle: Lifecycle;
  /** The syncs running in this process, by run id (calls/ingest/sync.ts). */
  syncs: RunningSyncs;
  /**
   * The clients this process has seen with every call classified under their current outcomes
   * (outcomes/classification-guard.ts), so reads stop looking.
   */
  classifiedClients: Set<string>;
  /** Work requests started and did not wait for; closing the app waits for it. */
  inFlight: WorkInFlight;
  /** The agency's brand as last read (brand/brand-store.ts loadBrand). */
  brandCache: BrandCache;
  /** Quality summaries' settled days, merged once (quality/settled-histograms.ts). */
  settledHistograms: SettledHistograms;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}
