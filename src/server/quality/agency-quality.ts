/**
 * Conversation quality across the agency's clients: per client of the Analytics table,
 * the median response time and the share of measured calls the caller interrupted; and which
 * clients' agents answer markedly slower than before (at-risk). From the daily quality rollups.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { type Histogram, histogramCalls, histogramPercentile } from './histogram';
import { readHistograms } from './quality-rollups';

export interface ClientQualityFigures {
  /** Median over the calls of each call's median response time (ms); null: none measured. */
  medianResponseMs: number | null;
  /** Calls with at least one caller interruption, in percent of calls measured to say (one decimal). */
  interruptionRate: number | null;
}

async function histogramsByClient(
  db: Kysely<Database>,
  clientIds: string[] | null,
  metric: string,
  from: string,
  to: string,
): Promise<Map<string, Histogram>> {
  const out = new Map<string, Histogram>();
  for (const [clientId, byMetric] of await readHistograms(db, clientIds, from, to, [metric])) {
    const histogram = byMetric.get(metric);
    if (histogram) out.set(clientId, histogram);
  }
  return out;
}

/** The Analytics table's quality figures of these clients over local days from–to. */
export async function qualityOfClients(
  db: Kysely<Database>,
  clientIds: string[],
  from: string,
  to: string,
): Promise<Map<string, ClientQualityFigures>> {
  const [latency, interruptions] = await Promise.all([
    histogramsByClient(db, clientIds, 'responseLatencyP50Ms', from, to),
    histogramsByClient(db, clientIds, 'interruptionsCaller', from, to),
  ]);
  const out = new Map<string, ClientQualityFigures>();
  for (const id of clientIds) {
    const counted = interruptions.get(id);
    const measured = histogramCalls(counted);
    const interrupted = measured - Math.max(0, counted?.get(0) ?? 0);
    out.set(id, {
      medianResponseMs: histogramPercentile(latency.get(id), 0.5),
      interruptionRate: measured === 0 ? null : Math.round((interrupted / measured) * 1000) / 10,
    });
  }
  return out;
}

/** p90 of the calls' p90 response times now against before, per client with enough calls in both. */
export async function responseTimesNowAndBefore(
  db: Kysely<Database>,
  current: { from: string; to: string },
  previous: { from: string; to: string },
  minCalls: number,
): Promise<Map<string, { now: number; before: number }>> {
  const [now, before] = await Promise.all([
    histogramsByClient(db, null, 'responseLatencyP90Ms', current.from, current.to),
    histogramsByClient(db, null, 'responseLatencyP90Ms', previous.from, previous.to),
  ]);
  const out = new Map<string, { now: number; before: number }>();
  for (const [clientId, histogram] of now) {
    const earlier = before.get(clientId);
    if (histogramCalls(histogram) < minCalls || histogramCalls(earlier) < minCalls) continue;
    const p90Now = histogramPercentile(histogram, 0.9);
    const p90Before = histogramPercentile(earlier, 0.9);
    if (p90Now !== null && p90Before !== null) out.set(clientId, { now: p90Now, before: p90Before });
  }
  return out;
}
