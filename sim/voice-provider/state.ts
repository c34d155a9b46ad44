/**
 * The simulator's in-memory world: one account per API key, each with its own calls, plus the
 * pathways, expired recordings and the failure mode. Plain data so tests can look inside.
 */

export type SimMode = 'normal' | '429' | '500' | 'slow' | 'flaky';
/** Error answers the stand-in can inject into reads. */
export type FaultStatus = 429 | 500 | 503;
export type BlandSpeaker = 'user' | 'assistant' | 'robot' | 'agent-action';

export interface BlandTranscriptLine {
  id: number;
  created_at: string;
  text: string;
  user: BlandSpeaker;
  c_id: string;
}

/** Bland's call-details object as GET /v1/calls/{id} and the post-call webhook carry it. */
export interface BlandCallRecord {
  call_id: string;
  c_id: string;
  to: string;
  from: string;
  call_length: number;
  corrected_duration: string;
  batch_id: string | null;
  inbound: boolean;
  completed: boolean;
  created_at: string;
  started_at: string | null;
  end_at: string | null;
  queue_status: string;
  /** One of Bland's six final statuses; absent while the call is in progress. */
  status?: string;
  endpoint_url: string;
  max_duration: number;
  error_message: string | null;
  answered_by: string | null;
  call_ended_by: string | null;
  record: boolean;
  recording_url: string | null;
  price: number;
  summary: string | null;
  pathway_id: string | null;
  transferred_to: string | null;
  transferred_at: string | null;
  is_proxy_agent_call: boolean;
  local_dialing: boolean;
  variables: Record<string, unknown>;
  metadata: Record<string, unknown>;
  request_data: Record<string, unknown>;
  analysis: unknown;
  analysis_schema: unknown;
  /** Bland's post-call outcome tag; absent on calls no disposition ran on (the usual case). */
  disposition_tag?: string | null;
  pathway_logs: unknown;
  concatenated_transcript: string;
  transcripts: BlandTranscriptLine[];
  [field: string]: unknown;
}

/**
 * How GET /v1/calls/{id}/correct answers for a call: with its corrected segments, 404 (Bland has
 * no corrected transcript of it), or an error status.
 */
export type CorrectedAnswer = 'available' | 'missing' | FaultStatus;

/** A segment of Bland's corrected transcript (GET /v1/calls/{call_id}/correct, `corrected`). */
export interface BlandCorrectedSegment {
  /** Seconds from the call's start. */
  start: number;
  end: number;
  text: string;
  /** Diarization: 2 for the agent, 1 for the caller here (Bland's example numbers them so). */
  speaker: number;
  speaker_label: 'assistant' | 'user';
  confidence: number;
}

export interface SimCall {
  /** The API key of the owning account ('' for calls placed without a key). */
  account: string;
  createdAtMs: number;
  /** Moves when the call changes, for sort_by=updated_at. Not part of Bland's object. */
  updatedAtMs: number;
  details: BlandCallRecord;
}

export interface SimAccount {
  apiKey: string;
  /** The AI agent's own number: `to` of inbound calls, `from` of outbound ones. */
  agentNumber: string;
  calls: SimCall[];
}

export interface SimStats {
  /** Requests to /v1/* (injected failures included). */
  requests: number;
  byRoute: Record<string, number>;
  /** Concurrent /v1 requests per authorization value, now and at most. */
  inFlight: Map<string, number>;
  maxInFlight: Map<string, number>;
  /** The last request lines' paths as received (any route, unknown ones too), oldest first. */
  paths: string[];
}

/** How many request paths the stats keep. */
export const SIM_PATHS_KEPT = 1_000;

export interface SimState {
  accounts: Map<string, SimAccount>;
  callsById: Map<string, SimCall>;
  pathways: Map<string, { name: string; description: string }>;
  expiredRecordings: Set<string>;
  mode: SimMode;
  slowMs: number;
  /** Failing (or slow) answers left before the mode returns to normal; null = until changed. */
  modeRemaining: number | null;
  retryAfterSeconds: number;
  /** Alternates flaky answers: odd requests fail, even ones pass. */
  flakyCounter: number;
  transcriptSeq: number;
  stats: SimStats;
  /**
   * Calls whose corrected transcript answers otherwise than generate.ts decides (about one ended
   * call in four has none, by its id).
   */
  correctedAnswers: Map<string, CorrectedAnswer>;
  /** Call ids whose detail request (GET /v1/calls/{id}) fails with `status`, `times` more times. */
  failingDetails: Map<string, { status: FaultStatus; times: number }>;
  /**
   * Faults on reads (GET /v1/…): every `every`-th read answers the next of `statuses` instead,
   * as a provider under load does (~10% with every = 10). null: off. Not on corrected-transcript
   * reads: their failure is absorbed by design (the call keeps its post-call transcript), so a
   * sync could not account for a fault injected there; correctedAnswers fails them instead.
   */
  readFaults: { every: number; statuses: FaultStatus[]; reads: number; answered: number } | null;
  /**
   * Whether list answers carry `total_count`. Bland's own documented example omits it, so it is
   * off unless a test turns it on: a client that pages by it stops after one page.
   */
  listTotalCount: boolean;
}

/** Fixed ids so docs, seeds and tests can name them. */
export const SIM_PATHWAYS = {
  sales: '3f8b2c1e-5a47-4d0e-9c61-7b2a9e4d1f01',
  support: '3f8b2c1e-5a47-4d0e-9c61-7b2a9e4d1f02',
  booking: '3f8b2c1e-5a47-4d0e-9c61-7b2a9e4d1f03',
} as const;

export function createSimState(): SimState {
  return {
    accounts: new Map(),
    callsById: new Map(),
    pathways: new Map([
      [SIM_PATHWAYS.sales, { name: 'Sales', description: 'Qualifies leads and books demos' }],
      [SIM_PATHWAYS.support, { name: 'Support', description: 'Answers product questions and opens tickets' }],
      [SIM_PATHWAYS.booking, { name: 'Booking', description: 'Books, moves and cancels appointments' }],
    ]),
    expiredRecordings: new Set(),
    mode: 'normal',
    slowMs: 20_000,
    modeRemaining: null,
    retryAfterSeconds: 1,
    flakyCounter: 0,
    transcriptSeq: 100_000,
    stats: { requests: 0, byRoute: {}, inFlight: new Map(), maxInFlight: new Map(), paths: [] },
    correctedAnswers: new Map(),
    failingDetails: new Map(),
    readFaults: null,
    listTotalCount: false,
  };
}
