/**
 * A call's conversation quality from its utterances' times. Pure: the same function
 * measures a call as it arrives, in the backfill and in tests; it never guesses what the timing
 * cannot support (an `approx` call has turns, ended-by, escalation and sentiment only).
 *
 * Definitions (docs/design/conversation-quality.md):
 * - a turn is a run of one party's lines, in the order spoken;
 * - a response latency is an agent turn's start minus the end of the caller's last utterance
 *   before it; an agent starting before the caller finished is an interruption, not a latency;
 * - an interruption is a party starting while the other is still speaking, overlapping it by at
 *   least INTERRUPTION_OVERLAP_MS;
 * - dead air is a gap ≥ DEAD_AIR_MS where nobody speaks, between the first and last utterance;
 *   silencePct counts only gaps over SILENCE_MS, as a share of the call;
 * - percentiles are nearest-rank.
 */
import {
  type CallQuality,
  DEAD_AIR_MS,
  type EndedBy,
  INTERRUPTION_OVERLAP_MS,
  MAX_MOMENTS,
  type QualityMoment,
  SILENCE_MS,
  SLOW_TURN_MS,
  type TimingPrecision,
} from '../../contract/quality';

export type Party = 'agent' | 'caller';

/** One utterance; times in ms from the call's start, absent when the platform gives none. */
export interface TimedLine {
  speaker: Party;
  startMs?: number | null;
  endMs?: number | null;
}

export interface Conversation {
  precision: TimingPrecision;
  lines: readonly TimedLine[];
  /** The call's length as the provider bills it; speech past it stretches it. */
  durationMs: number;
  endedBy: EndedBy;
  escalated: boolean;
  sentiment: string | null;
}

interface Span {
  speaker: Party;
  start: number;
  end: number;
}

/** Nearest-rank percentile of ascending values; null for none. */
export function percentile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? null;
}

const oneDecimal = (n: number) => Math.round(n * 10) / 10;
const twoDecimals = (n: number) => Math.round(n * 100) / 100;

function turnsOf(speakers: readonly Party[]): number {
  let turns = 0;
  let previous: Party | null = null;
  for (const speaker of speakers) {
    if (speaker !== previous) turns++;
    previous = speaker;
  }
  return turns;
}

function timedSpans(lines: readonly TimedLine[]): Span[] | null {
  const spans: Span[] = [];
  for (const line of lines) {
    const { startMs: start, endMs: end } = line;
    if (typeof start !== 'number' || typeof end !== 'number') return null;
    if (!Number.isFinite(start) || !Number.isFinite(end) || start < 0 || end < start) return null;
    spans.push({ speaker: line.speaker, start: Math.round(start), end: Math.round(end) });
  }
  // Stable: lines starting together keep the platform's order.
  return spans.sort((a, b) => a.start - b.start);
}

/** Total length of the union of spans (spans sorted by start). */
function unionLength(spans: readonly Span[]): number {
  let total = 0;
  let runStart = -1;
  let runEnd = -1;
  for (const s of spans) {
    if (s.start > runEnd) {
      if (runEnd > runStart) total += runEnd - runStart;
      runStart = s.start;
      runEnd = s.end;
    } else runEnd = Math.max(runEnd, s.end);
  }
  if (runEnd > runStart) total += runEnd - runStart;
  return total;
}

function approxQuality(c: Conversation): CallQuality {
  return {
    precision: 'approx',
    turns: turnsOf(c.lines.map((l) => l.speaker)),
    responseLatencyMs: null,
    interruptions: null,
    deadAir: null,
    silencePct: null,
    agentTalkPct: null,
    talkListenRatio: null,
    longestMonologueMs: null,
    endedBy: c.endedBy,
    escalated: c.escalated,
    sentiment: c.sentiment,
    moments: [],
  };
}

/** The call's quality, or null when it has no utterance to measure. */
export function measureConversation(c: Conversation): CallQuality | null {
  if (c.lines.length === 0) return null;
  const spans = c.precision === 'approx' ? null : timedSpans(c.lines);
  // A platform that promised times but sent a line without them: say so rather than guess.
  if (!spans) return approxQuality(c);

  const moments: QualityMoment[] = [];
  const latencies: number[] = [];
  const interruptions = { caller: 0, agent: 0 };
  // The latest end of each party's lines seen so far (all started at or before the current one).
  const reach: Record<Party, number> = { agent: -1, caller: -1 };
  let lastCallerEnd: number | null = null;
  let previous: Party | null = null;
  let monologue = { start: 0, end: 0 };
  let longestMonologue = 0;

  for (const s of spans) {
    const other: Party = s.speaker === 'agent' ? 'caller' : 'agent';
    const overlap = Math.min(reach[other], s.end) - s.start;
    if (reach[other] > s.start && overlap >= INTERRUPTION_OVERLAP_MS) {
      interruptions[s.speaker]++;
      moments.push({
        kind: s.speaker === 'caller' ? 'caller_interrupted' : 'agent_interrupted',
        atMs: s.start,
        durationMs: overlap,
      });
    }
    if (s.speaker === 'agent' && previous === 'caller' && lastCallerEnd !== null) {
      const latency = s.start - lastCallerEnd;
      if (latency >= 0) {
        latencies.push(latency);
        if (latency > SLOW_TURN_MS)
          moments.push({ kind: 'slow_turn', atMs: lastCallerEnd, durationMs: latency });
      }
    }
    if (s.speaker === 'agent') {
      if (previous !== 'agent') monologue = { start: s.start, end: s.end };
      else monologue.end = Math.max(monologue.end, s.end);
      longestMonologue = Math.max(longestMonologue, monologue.end - monologue.start);
    } else lastCallerEnd = s.end;
    reach[s.speaker] = Math.max(reach[s.speaker], s.end);
    previous = s.speaker;
  }

  // Gaps where nobody speaks, between the first utterance and the last.
  let deadAirCount = 0;
  let deadAirLongest = 0;
  let silence = 0;
  let covered = spans[0]?.end ?? 0;
  for (const s of spans) {
    const gap = s.start - covered;
    if (gap >= DEAD_AIR_MS) {
      deadAirCount++;
      deadAirLongest = Math.max(deadAirLongest, gap);
      moments.push({ kind: 'dead_air', atMs: covered, durationMs: gap });
    }
    if (gap > SILENCE_MS) silence += gap;
    covered = Math.max(covered, s.end);
  }

  const agentTalk = unionLength(spans.filter((s) => s.speaker === 'agent'));
  const callerTalk = unionLength(spans.filter((s) => s.speaker === 'caller'));
  const lastEnd = Math.max(...spans.map((s) => s.end));
  const callMs = Math.max(c.durationMs, lastEnd);
  const sorted = [...latencies].sort((a, b) => a - b);

  return {
    precision: c.precision,
    turns: turnsOf(spans.map((s) => s.speaker)),
    responseLatencyMs: {
      p50: percentile(sorted, 0.5),
      p90: percentile(sorted, 0.9),
      max: sorted.length > 0 ? (sorted[sorted.length - 1] ?? null) : null,
      count: sorted.length,
    },
    interruptions,
    deadAir: { count: deadAirCount, longestMs: deadAirLongest },
    silencePct: callMs > 0 ? oneDecimal((silence / callMs) * 100) : null,
    agentTalkPct: callMs > 0 ? oneDecimal((agentTalk / callMs) * 100) : null,
    talkListenRatio: callerTalk > 0 ? twoDecimals(agentTalk / callerTalk) : null,
    longestMonologueMs: longestMonologue,
    endedBy: c.endedBy,
    escalated: c.escalated,
    sentiment: c.sentiment,
    moments: moments.sort((a, b) => a.atMs - b.atMs).slice(0, MAX_MOMENTS),
  };
}
