/** Transcripts in the call log: parsing is shared with the server (contract/transcript.ts). */
export { parseTranscript, speakerOf, type Speaker, type TranscriptLine } from '../../../contract/transcript';

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
