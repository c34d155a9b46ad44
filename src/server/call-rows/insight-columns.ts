/** A call's insights as the `calls` columns hold them, and back. */

import type { CallRow } from '../db/schema';
import { parseJsonObject } from '../http/json-body';
import type { CallInsights } from '../providers/voice/types';

export type InsightColumns = Pick<
  CallRow,
  | 'summary'
  | 'answered_by'
  | 'call_ended_by'
  | 'error_message'
  | 'disposition_tag'
  | 'analysis_json'
  | 'variables_json'
  | 'provider_price_micros'
>;

const INSIGHT_KEYS = [
  'summary',
  'answered_by',
  'call_ended_by',
  'error_message',
  'disposition_tag',
  'analysis_json',
  'variables_json',
  'provider_price_micros',
] as const satisfies readonly (keyof InsightColumns)[];

const json = (value: Record<string, unknown> | null) => (value ? JSON.stringify(value) : null);

export function insightColumns(insights: CallInsights | undefined, priceUsd: number | null): InsightColumns {
  return {
    summary: insights?.summary ?? null,
    answered_by: insights?.answeredBy ?? null,
    call_ended_by: insights?.endedBy ?? null,
    error_message: insights?.errorMessage ?? null,
    disposition_tag: insights?.dispositionTag ?? null,
    analysis_json: json(insights?.analysis ?? null),
    variables_json: json(insights?.variables ?? null),
    provider_price_micros: priceUsd === null ? null : Math.round(priceUsd * 1_000_000),
  };
}

/** Newer values win; a value the newer delivery lacks keeps the stored one. */
export function mergeInsightColumns(current: InsightColumns, incoming: InsightColumns): InsightColumns {
  // Filled for every key in INSIGHT_KEYS by the loop below
  const out = {} as Record<keyof InsightColumns, unknown>;
  for (const key of INSIGHT_KEYS) out[key] = incoming[key] ?? current[key] ?? null;
  // Every key was set from InsightColumns' own values, null where neither had one
  return out as InsightColumns;
}

export function insightsOf(row: InsightColumns): CallInsights {
  return {
    summary: row.summary,
    answeredBy: row.answered_by,
    endedBy: row.call_ended_by,
    errorMessage: row.error_message,
    dispositionTag: row.disposition_tag,
    analysis: parseJsonObject(row.analysis_json),
    variables: parseJsonObject(row.variables_json),
  };
}
