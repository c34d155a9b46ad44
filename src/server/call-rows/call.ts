/**
 * A stored call as the API speaks it: the log's row (`toCall`), the detail view
 * (`toCallDetail`) and the attention reasons it keeps as JSON. Every feature that answers with a
 * call (the calls views, alerts, client webhooks, the attention list) maps it here. Pure; below the
 * features.
 */

import { callReference } from '../../contract/call-reference';
import type { Call, CallDetail } from '../../contract/calls';
import type { CallRow } from '../db/schema';
import { insightsOf } from './insight-columns';
import { qualityBrief, storedQuality } from './quality-columns';

export function toCall(
  row: CallRow,
  recordingPath: (id: string) => string = (id) => `/api/recording/${id}`,
): Call {
  return {
    id: row.id,
    reference: callReference(row.id),
    providerCallId: row.provider_call_id,
    fromNumber: row.from_number,
    toNumber: row.to_number,
    duration: row.duration_seconds,
    status: row.status,
    pathway: row.pathway,
    createdAt: new Date(row.created_at).toISOString(),
    ...(row.recording_url ? { recordingUrl: recordingPath(row.id) } : {}),
    transcript: row.transcript,
    cost: Math.round(row.cost_micros / 10_000) / 100,
    isSample: row.source === 'sample',
    outcome: row.outcome,
    needsAttention: row.attention_reasons !== null && row.handled_at === null,
    qualityBrief: qualityBrief(row),
  };
}

/** The stored reasons a call needs a person (a JSON array), [] for none or unreadable. */
export function attentionReasonsOf(row: Pick<CallRow, 'attention_reasons'>): string[] {
  if (!row.attention_reasons) return [];
  try {
    const reasons = JSON.parse(row.attention_reasons);
    return Array.isArray(reasons) ? reasons.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}

/** A stored call as the detail view shows it; null for calls the log does not list either. */
export function toCallDetail(
  row: CallRow | undefined,
  recordingPath?: (id: string) => string,
): CallDetail | null {
  if (row?.verified !== 1 || row.is_proxy !== 0) return null;
  const insights = insightsOf(row);
  return {
    ...toCall(row, recordingPath),
    summary: insights.summary,
    answeredBy: insights.answeredBy,
    endedBy: insights.endedBy,
    errorMessage: insights.errorMessage,
    dispositionTag: insights.dispositionTag,
    analysis: insights.analysis,
    variables: insights.variables,
    attentionReasons: attentionReasonsOf(row),
    handledAt: row.handled_at === null ? null : new Date(Number(row.handled_at)).toISOString(),
    handledBy: row.handled_by,
    transcriptRemovedAt: isoOrNull(row.transcript_cleared_at),
    recordingRemovedAt: isoOrNull(row.recording_cleared_at),
    quality: storedQuality(row.quality_json),
  };
}

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());
