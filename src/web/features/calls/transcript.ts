/** Transcripts in the call log: parsing is shared with the server (contract/transcript.ts). */
import { parseTranscript, type TranscriptLine } from '../../../contract/transcript';

export { parseTranscript, type Speaker, speakerOf, type TranscriptLine } from '../../../contract/transcript';

/**
 * A line's time for display: ISO instants as a 12-hour clock time, seconds offsets as m:ss,
 * anything else as sent.
 */
export function formatTranscriptTime(timestamp: string, timeZone?: string): string {
  if (/^\d+(\.\d+)?$/.test(timestamp)) {
    const seconds = Math.floor(Number(timestamp));
    return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  }
  const ms = Date.parse(timestamp);
  if (Number.isNaN(ms)) return timestamp;
  return new Date(ms).toLocaleTimeString('en-US', {
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
    timeZone,
  });
}

/** A transcript line with when it was spoken, in ms from the call's start, where the platform said. */
export interface SpokenLine extends TranscriptLine {
  startMs?: number;
  endMs?: number;
}

const isMs = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * The lines as parseTranscript reads them, each with its `startMs`/`endMs` where the stored line
 * has them (Retell's words, Vapi's messages, Bland's corrected segments); null as parseTranscript.
 */
export function parseTimedTranscript(raw: string | null | undefined): SpokenLine[] | null {
  const lines = parseTranscript(raw);
  if (!lines || !raw) return lines;
  // parseTranscript keeps exactly the array's objects, in order: the same items carry the times.
  const items = (JSON.parse(raw) as unknown[]).filter(
    (item): item is Record<string, unknown> => !!item && typeof item === 'object',
  );
  return lines.map((line, i) => {
    const item = items[i];
    return {
      ...line,
      ...(isMs(item?.startMs) ? { startMs: item.startMs } : {}),
      ...(isMs(item?.endMs) ? { endMs: item.endMs } : {}),
    };
  });
}
