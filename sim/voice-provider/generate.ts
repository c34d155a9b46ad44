/**
 * Realistic Bland call objects: E.164 numbers in the 555-01xx range reserved for fiction, mostly
 * completed calls with some transfers and failures, pathway ids of the simulator's pathways,
 * transcripts of 4-10 turns, and recording URLs. Randomness only; no I/O.
 */
import { randomUUID } from 'node:crypto';
import {
  type BlandCallRecord,
  type BlandCorrectedSegment,
  type BlandSpeaker,
  type BlandTranscriptLine,
  SIM_PATHWAYS,
} from './state';

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];
const between = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));

/** +1 NPA 555 01XX: valid E.164 shape, never a real subscriber. */
export function randomPhone(): string {
  const area = pick(['212', '213', '305', '312', '415', '512', '617', '646', '702', '713', '808', '917']);
  return `+1${area}55501${String(between(0, 99)).padStart(2, '0')}`;
}

/** Bland writes created_at with microseconds and an explicit +00:00 offset. */
export function blandTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '000+00:00');
}

const blandSeconds = (ms: number) =>
  new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', '+00:00');

type Flavour = 'completed' | 'transferred' | 'no-answer' | 'busy' | 'failed' | 'canceled' | 'active';

function pickFlavour(): Flavour {
  const r = Math.random();
  if (r < 0.72) return 'completed';
  if (r < 0.86) return 'transferred';
  return pick(['no-answer', 'no-answer', 'busy', 'busy', 'failed', 'canceled'] as const);
}

/**
 * What a pathway's dispositions and analysis say about its calls, when they ran: a tag (Bland
 * sends it only where dispositions are enabled, so often it is absent), analysis answers and
 * variables the agent collected.
 */
const OUTCOMES: Record<
  string,
  { tag: string; analysis: Record<string, unknown>; variables: Record<string, unknown> }
> = {
  [SIM_PATHWAYS.sales]: {
    tag: 'INTERESTED',
    analysis: { demo_booked: true, seats: 12 },
    variables: { demo_time: 'Thursday 2pm', seats: 12 },
  },
  [SIM_PATHWAYS.support]: {
    tag: 'TICKET_OPENED',
    analysis: { resolved: false, callback_requested: false },
    variables: { ticket_id: 'T-4821' },
  },
  [SIM_PATHWAYS.booking]: {
    tag: 'APPOINTMENT_BOOKED',
    analysis: { appointment_booked: true },
    variables: { appointment_time: 'Friday 9am' },
  },
};

const SCRIPTS: Record<string, { summary: string; lines: string[] }> = {
  [SIM_PATHWAYS.sales]: {
    summary: 'The caller asked about pricing for the team plan and agreed to a demo next week.',
    lines: [
      'Hi, thanks for calling Northwind. This is Ava, how can I help you today?',
      "Hi, I'm looking into your team plan and wanted to know the pricing.",
      'Of course. The team plan is forty nine dollars per seat per month, billed annually. How many seats would you need?',
      'Probably around twelve people to start with.',
      'Great, at twelve seats you would also qualify for onboarding support. Would a short demo help?',
      'Yes, a demo would be useful. Next week works best for us.',
      'I can offer Tuesday at ten or Thursday at two. Which do you prefer?',
      'Thursday at two, please.',
      "Done. You'll get a calendar invite and a summary by email shortly.",
      'Perfect, thank you so much.',
    ],
  },
  [SIM_PATHWAYS.support]: {
    summary: 'The caller could not export a report; the agent walked them through it and opened a ticket.',
    lines: [
      'Thanks for calling support. Can I get your account email to start?',
      "Sure, it's the one ending in northwind dot com. I can't export my monthly report.",
      'Thanks. Are you seeing an error message when you click export?',
      'It just spins and then nothing happens.',
      'Understood. Could you try the CSV option under the three dots menu while I check your account?',
      'Okay, that one worked.',
      "Good. I've opened a ticket so the team can fix the PDF export for you.",
      'Great, how will I hear back?',
      "You'll get an email within one business day. Is there anything else I can help with?",
      "No, that's all. Thanks!",
    ],
  },
  [SIM_PATHWAYS.booking]: {
    summary: 'The caller booked a consultation for Friday morning and received a confirmation.',
    lines: [
      "Hello, you've reached the booking line. Would you like to book, move or cancel an appointment?",
      "I'd like to book a consultation, please.",
      'Sure. Do you have a preferred day this week?',
      'Friday morning if possible.',
      'I have nine thirty or eleven on Friday. Which works for you?',
      'Nine thirty, please.',
      'Booked for Friday at nine thirty. Can I confirm the best number to text a reminder to?',
      'This number is fine.',
      "You're all set. We'll text you a reminder the day before.",
      'Thanks, bye.',
    ],
  },
};

function buildTranscript(
  state: { transcriptSeq: number },
  callId: string,
  pathwayId: string,
  startMs: number,
  durationSeconds: number,
  transferTo: string | null,
): BlandTranscriptLine[] {
  const script = SCRIPTS[pathwayId] ?? SCRIPTS[SIM_PATHWAYS.support];
  const turns = between(4, 10);
  const step = Math.max(1, Math.floor((durationSeconds * 1000) / (turns + 1)));
  const lines: BlandTranscriptLine[] = [];
  for (let i = 0; i < turns; i++) {
    const user: BlandSpeaker = i % 2 === 0 ? 'assistant' : 'user';
    lines.push({
      id: ++state.transcriptSeq,
      created_at: blandTimestamp(startMs + step * (i + 1)),
      text: script.lines[i],
      user,
      c_id: callId,
    });
  }
  if (transferTo) {
    lines.push({
      id: ++state.transcriptSeq,
      created_at: blandTimestamp(startMs + step * (turns + 1)),
      text: `Transferring call to ${transferTo}`,
      user: 'agent-action',
      c_id: callId,
    });
  }
  return lines;
}

export interface GenerateInput {
  createdAtMs: number;
  agentNumber: string;
  /** Public base of the simulator, for recording_url. */
  baseUrl: string;
  /** Bland fields applied last; `status`/`transferred_to` also steer what is generated. */
  overrides?: Record<string, unknown>;
}

export function generateCall(state: { transcriptSeq: number }, input: GenerateInput): BlandCallRecord {
  const o = input.overrides ?? {};
  const callId = typeof o.call_id === 'string' ? o.call_id : randomUUID();
  let flavour = pickFlavour();
  if (typeof o.transferred_to === 'string' && o.transferred_to) flavour = 'transferred';
  else if (o.status === 'completed') flavour = 'completed';
  else if (['no-answer', 'busy', 'failed', 'canceled'].includes(String(o.status)))
    flavour = o.status as Flavour;
  if (o.completed === false) flavour = 'active';

  const pathwayId =
    o.pathway_id === null
      ? null
      : typeof o.pathway_id === 'string'
        ? o.pathway_id
        : pick(Object.values(SIM_PATHWAYS));
  const inbound = Math.random() < 0.6;
  const caller = randomPhone();
  const from = inbound ? caller : input.agentNumber;
  const to = inbound ? input.agentNumber : caller;
  const connected = flavour === 'completed' || flavour === 'transferred' || flavour === 'active';
  // Some connected calls reach an answering machine: short, and Bland says so in answered_by.
  // Asked for by answered_by, or by chance when the caller did not name the status it wants.
  const voicemail =
    flavour === 'completed' &&
    !o.transcripts &&
    (o.answered_by === 'voicemail' || (o.status === undefined && Math.random() < 0.08));
  const seconds = voicemail
    ? between(18, 40)
    : connected
      ? between(35, 540)
      : flavour === 'failed'
        ? between(0, 8)
        : 0;
  const startedMs = input.createdAtMs + between(2, 8) * 1000;
  const endMs = startedMs + seconds * 1000;
  const transferredTo =
    flavour === 'transferred'
      ? typeof o.transferred_to === 'string'
        ? o.transferred_to
        : randomPhone()
      : null;
  const transcripts = voicemail
    ? [
        {
          id: ++state.transcriptSeq,
          created_at: blandTimestamp(startedMs + 3000),
          text: 'Hi, this is Ava from Northwind returning your call. Please call us back at your convenience.',
          user: 'assistant' as BlandSpeaker,
          c_id: callId,
        },
      ]
    : connected && pathwayId
      ? buildTranscript(state, callId, pathwayId, startedMs, seconds, transferredTo)
      : [];
  const callLength = Math.round((seconds / 60) * 10_000) / 10_000;
  const failedStatus =
    flavour === 'no-answer' || flavour === 'busy' || flavour === 'failed' || flavour === 'canceled';

  const outcome = connected && !voicemail && pathwayId ? OUTCOMES[pathwayId] : undefined;
  // Dispositions run on some calls only; the tag is then missing (not null), as Bland omits it.
  const tagged = outcome && Math.random() < 0.7;

  const call: BlandCallRecord = {
    call_id: callId,
    c_id: callId,
    to,
    from,
    call_length: callLength,
    corrected_duration: String(seconds),
    batch_id: null,
    inbound,
    completed: flavour !== 'active',
    created_at: blandTimestamp(input.createdAtMs),
    started_at: flavour === 'no-answer' || flavour === 'canceled' ? null : blandSeconds(startedMs),
    end_at: blandSeconds(input.createdAtMs + 30 * 60_000),
    queue_status: flavour === 'active' ? 'started' : 'complete',
    endpoint_url: 'api.bland.ai',
    max_duration: 30,
    error_message: flavour === 'failed' ? 'Call failed: carrier rejected the call' : null,
    answered_by: voicemail ? 'voicemail' : connected ? 'human' : flavour === 'no-answer' ? 'no-answer' : null,
    call_ended_by: connected ? pick(['ASSISTANT', 'USER']) : null,
    record: true,
    recording_url: connected ? `${input.baseUrl}/v1/recordings/${callId}` : null,
    price: Math.round(callLength * 0.09 * 1000) / 1000,
    summary: voicemail
      ? 'The call reached voicemail; the agent left a short message asking for a call back.'
      : connected && pathwayId
        ? (SCRIPTS[pathwayId]?.summary ?? null)
        : null,
    pathway_id: pathwayId,
    transferred_to: transferredTo,
    transferred_at: transferredTo ? blandSeconds(endMs) : null,
    is_proxy_agent_call: false,
    local_dialing: false,
    variables: {
      call_id: callId,
      from,
      to,
      now_utc: new Date(input.createdAtMs).toUTCString(),
      ...(outcome?.variables ?? {}),
    },
    metadata: {},
    request_data: { phone_number: to, wait: false, language: 'en' },
    analysis: outcome ? outcome.analysis : null,
    analysis_schema: null,
    // Bland documents six final statuses and none for a call in progress: it sends none until then.
    ...(flavour === 'active' ? {} : { status: failedStatus ? flavour : 'completed' }),
    ...(tagged ? { disposition_tag: outcome.tag } : {}),
    pathway_logs: null,
    concatenated_transcript: transcripts.map((t) => `${t.user}: ${t.text}`).join(' \n '),
    transcripts,
  };
  Object.assign(call, o);
  // Keep the two duration fields telling the same story when a test sets only one of them.
  if ('call_length' in o && !('corrected_duration' in o) && typeof o.call_length === 'number') {
    call.corrected_duration = String(Math.round(o.call_length * 60));
  } else if ('corrected_duration' in o && !('call_length' in o) && o.corrected_duration != null) {
    call.call_length = Math.round((Number(o.corrected_duration) / 60) * 10_000) / 10_000;
  }
  if ('transcripts' in o && !('concatenated_transcript' in o) && Array.isArray(o.transcripts)) {
    call.concatenated_transcript = (o.transcripts as BlandTranscriptLine[])
      .map((t) => `${t.user}: ${t.text}`)
      .join(' \n ');
  }
  return call;
}

/** Bland's seconds with three decimals, as its corrected transcript writes them. */
const seconds3 = (ms: number) => Math.round(ms) / 1000;

/** About one call in four has no corrected transcript, decided by its id so it stays so. */
function correctedByDefault(callId: string): boolean {
  let sum = 0;
  for (const char of callId) sum = (sum * 31 + char.charCodeAt(0)) % 9973;
  return sum % 4 !== 0;
}

/** The lines a corrected transcript is made from: what was said (no agent actions), in order. */
function spokenLines(call: BlandCallRecord): BlandTranscriptLine[] {
  return (call.transcripts ?? []).filter(
    (line) => line.user !== 'agent-action' && typeof line.text === 'string' && line.text.trim() !== '',
  );
}

/**
 * Whether GET /v1/calls/{id}/correct has segments for the call by default: an ended call with a
 * recording and something said, unless its id puts it among the ones without.
 */
export function hasCorrectedTranscript(call: BlandCallRecord): boolean {
  return (
    call.completed === true &&
    !!call.recording_url &&
    spokenLines(call).length > 0 &&
    correctedByDefault(call.call_id)
  );
}

/**
 * The corrected transcript of a call, consistent with its post-call transcript: each line becomes
 * one segment per sentence (Bland splits so), labelled by who said it, timed in seconds from the
 * call's start. Lines take as long as their words (0.3 s a word, plus a breath) and follow each
 * other as a well-behaved agent talks: 0.4–1.8 s between them, now and then a caller's
 * "mm-hm"-short overlap (under the 300 ms an interruption needs). Drawn from the call's id, so a
 * call always answers the same; slow answers, dead air and interruptions are what a test sets up
 * itself (state.correctedAnswers), so the default calls put nothing in Needs attention.
 */
export function correctedSegments(call: BlandCallRecord): BlandCorrectedSegment[] {
  const segments: BlandCorrectedSegment[] = [];
  let seed = 0;
  for (const char of call.call_id) seed = (seed * 31 + char.charCodeAt(0)) % 1_000_003;
  const draw = () => {
    seed = (seed * 48271) % 2_147_483_647 || 1;
    return seed / 2_147_483_647;
  };
  // The agent greets at once, as the post-call lines' first clock time says (the player marks the
  // line spoken from 0:00).
  let from = 0;
  for (const [i, line] of spokenLines(call).entries()) {
    const sentences = line.text.trim().split(/(?<=[.?!])\s+/);
    const agent = line.user !== 'user';
    for (const [j, sentence] of sentences.entries()) {
      const to = from + sentence.split(/\s+/).length * 300 + 200;
      segments.push({
        start: seconds3(from),
        end: seconds3(to),
        text: sentence,
        speaker: agent ? 2 : 1,
        speaker_label: agent ? 'assistant' : 'user',
        confidence: Math.round((0.55 + ((i * 7 + j * 3) % 40) / 100) * 1000) / 1000,
      });
      from = j === sentences.length - 1 ? to : to + 150;
    }
    from += draw() < 0.1 ? -Math.round(draw() * 250) : 400 + Math.round(draw() * 1400);
  }
  return segments;
}
