/**
 * When each transcript line is spoken in the recording, so the player can highlight the line
 * being spoken and a click on a line can seek to it. Lines measured for quality carry their start
 * in ms, which wins; otherwise providers send a time per line (Bland: the instant it
 * was said; others: seconds from the start); without one, the lines are spread over the call by
 * their length and marked estimated.
 */
import type { SpokenLine } from './transcript';

export interface TimedLine extends SpokenLine {
  /** Seconds from the start of the recording. */
  start: number;
}

export interface TimedTranscript {
  lines: TimedLine[];
  /** True when the provider gave no usable times and the starts are spread by length. */
  estimated: boolean;
}

const SECONDS = /^\d+(\.\d+)?$/;

function clamp(value: number, max: number): number {
  const v = Math.max(0, value);
  return max > 0 ? Math.min(v, max) : v;
}

export function timeTranscript(lines: SpokenLine[], durationSeconds: number): TimedTranscript {
  if (lines.length > 0 && lines.every((l) => l.startMs !== undefined))
    return {
      lines: lines.map((l) => ({ ...l, start: clamp((l.startMs ?? 0) / 1000, durationSeconds) })),
      estimated: false,
    };
  const stamps = lines.map((l) => l.timestamp);
  if (stamps.length > 0 && stamps.every((s) => s !== undefined && SECONDS.test(s)))
    return {
      lines: lines.map((l) => ({ ...l, start: clamp(Number(l.timestamp), durationSeconds) })),
      estimated: false,
    };
  const instants = stamps.map((s) => (s === undefined ? Number.NaN : Date.parse(s)));
  if (instants.length > 0 && instants.every((t) => !Number.isNaN(t))) {
    // The recording starts with the conversation: its first line is at (about) 0.
    const first = Math.min(...instants);
    return {
      lines: lines.map((l, i) => ({ ...l, start: clamp((instants[i] - first) / 1000, durationSeconds) })),
      estimated: false,
    };
  }
  const weights = lines.map((l) => Math.max(1, l.text.length));
  const total = weights.reduce((n, w) => n + w, 0);
  let before = 0;
  return {
    lines: lines.map((l, i) => {
      const start = total > 0 ? (before / total) * Math.max(0, durationSeconds) : 0;
      before += weights[i];
      return { ...l, start };
    }),
    estimated: true,
  };
}

/** The line being spoken at `seconds`: the last one started by then, or -1 before the first. */
export function activeLineAt(lines: TimedLine[], seconds: number): number {
  let active = -1;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].start <= seconds + 0.05) active = i;
    else break;
  }
  return active;
}

/** m:ss for the player and the lines. */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The page link that opens a call at a moment: only someone allowed to see the call can open it. */
export function momentLink(origin: string, pagePath: string, callId: string, seconds: number): string {
  const params = new URLSearchParams({ call: callId, t: String(Math.max(0, Math.floor(seconds))) });
  return `${origin}${pagePath}?${params}`;
}

/** `?call=ID&t=SECONDS` of a page URL; t is null when absent or not a number. */
export function readCallLink(search: string): { callId: string | null; seconds: number | null } {
  const params = new URLSearchParams(search);
  const callId = params.get('call')?.trim() || null;
  const t = params.get('t');
  const seconds = t !== null && SECONDS.test(t) ? Number(t) : null;
  return { callId: callId && callId.length <= 200 ? callId : null, seconds };
}
