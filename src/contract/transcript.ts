/**
 * Transcript parsing (SPEC §3 "Transcript entry"), shared by the call log and the server's search
 * snippets. Calls store the transcript as JSON text; anything that is not a JSON array is treated
 * as unreadable and not shown.
 */
import type { TranscriptEntry } from './calls';

export type Speaker = 'AI Agent' | 'Caller';

export interface TranscriptLine {
  speaker: Speaker;
  text: string;
  timestamp?: string;
}

const AGENT_ROLES = new Set(['agent', 'assistant']);

export function speakerOf(entry: Pick<TranscriptEntry, 'speaker' | 'role'>): Speaker {
  const who = String(entry.speaker ?? entry.role ?? '').toLowerCase();
  return AGENT_ROLES.has(who) ? 'AI Agent' : 'Caller';
}

/** The lines of a transcript, or null when it is missing, not JSON, not an array, or empty. */
export function parseTranscript(raw: string | null | undefined): TranscriptLine[] | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!Array.isArray(value)) return null;
  const lines: TranscriptLine[] = [];
  for (const item of value) {
    if (!item || typeof item !== 'object') continue;
    // Checked just above: an object. Its fields may be of any type: each is read through String() or typeof.
    const entry = item as TranscriptEntry;
    const text = entry.text ?? entry.content ?? entry.message;
    lines.push({
      speaker: speakerOf(entry),
      text: typeof text === 'string' ? text : '',
      ...(entry.timestamp !== undefined && entry.timestamp !== null
        ? { timestamp: String(entry.timestamp) }
        : {}),
    });
  }
  return lines.length > 0 ? lines : null;
}
