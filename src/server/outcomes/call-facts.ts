/** What outcome rules read of a stored call. */

import { metricValues, storedQuality } from '../call-rows/quality-columns';
import type { CallRow } from '../db/schema';
import type { CallFacts } from './classify';

type Line = { role?: unknown; text?: unknown };

function transcriptLines(json: string | null): Line[] | null {
  if (!json) return null;
  try {
    const lines = JSON.parse(json);
    return Array.isArray(lines) ? lines.filter((l): l is Line => !!l && typeof l === 'object') : null;
  } catch {
    return null;
  }
}

const joined = (lines: Line[]) => lines.map((l) => String(l.text ?? '')).join('\n');

function objectOf(json: string | null): Record<string, unknown> | null {
  if (!json) return null;
  try {
    const value = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

export type FactColumns = Pick<
  CallRow,
  | 'status'
  | 'duration_seconds'
  | 'answered_by'
  | 'disposition_tag'
  | 'summary'
  | 'transcript'
  | 'variables_json'
  | 'quality_json'
>;

/** The call's quality figures as rules and thresholds read them; null when it was not measured. */
function qualityFacts(json: string | null): CallFacts['quality'] {
  const quality = storedQuality(json);
  return quality ? metricValues(quality) : null;
}

export function factsOf(row: FactColumns): CallFacts {
  const lines = transcriptLines(row.transcript);
  return {
    status: row.status,
    durationSeconds: row.duration_seconds,
    answeredBy: row.answered_by,
    dispositionTag: row.disposition_tag,
    summary: row.summary,
    transcript: lines ? joined(lines) : null,
    callerTranscript: lines ? joined(lines.filter((l) => l.role === 'user')) : null,
    variables: objectOf(row.variables_json),
    quality: qualityFacts(row.quality_json),
  };
}
