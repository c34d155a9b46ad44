/**
 * Pure generators of realistic sample calls: the demo tenant's history and the "add sample data"
 * button. Deterministic for a given seed, so the demo shows the same calls on every instance and a
 * top-up that runs twice (or on two instances at once) produces the same provider call ids.
 * Touches no database; the caller stores what it returns through the calls repository.
 */
import type { IncomingCall } from '../calls/write/calls-repository';
import type { CallInsights, NormalizedCallStatus, NormalizedTranscriptEntry } from '../providers/voice/types';

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Small, fast, seedable PRNG (mulberry32); good enough for sample data, never for secrets. */
export function createRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a, to turn a text seed into a PRNG seed. */
export function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

type Rng = () => number;

const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];

function weighted<T>(rng: Rng, entries: readonly (readonly [T, number])[]): T {
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  let r = rng() * total;
  for (const [value, w] of entries) {
    r -= w;
    if (r < 0) return value;
  }
  return entries[entries.length - 1][0];
}

/** Calls per hour of day (UTC): busy in business hours, a trickle at night. */
const HOUR_WEIGHTS = [1, 1, 1, 1, 1, 2, 3, 5, 8, 10, 10, 9, 8, 9, 10, 9, 8, 6, 4, 3, 2, 2, 1, 1].map(
  (w, hour) => [hour, w] as const,
);

export const DEMO_PATHWAYS = ['Sales', 'Support', 'Booking'] as const;
type Pathway = (typeof DEMO_PATHWAYS)[number];

const STATUS_MIX: Record<Pathway, readonly (readonly [NormalizedCallStatus, number])[]> = {
  Sales: [
    ['completed', 72],
    ['transferred', 12],
    ['failed', 13],
    ['active', 3],
  ],
  Support: [
    ['completed', 62],
    ['transferred', 22],
    ['failed', 13],
    ['active', 3],
  ],
  Booking: [
    ['completed', 80],
    ['transferred', 5],
    ['failed', 12],
    ['active', 3],
  ],
};

const FIRST_NAMES = [
  'Maria',
  'James',
  'Priya',
  'Daniel',
  'Aisha',
  'Tom',
  'Elena',
  'Marcus',
  'Grace',
  'Leo',
  'Sofia',
  'Ben',
];
const PRODUCTS = ['the Pro plan', 'the annual package', 'the starter bundle', 'the team licence'];
const ISSUES = [
  'my invoice shows the wrong amount',
  'I cannot log in to the portal',
  'my order has not arrived',
  'the app keeps freezing',
];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
const TIMES = ['9:30 AM', '11 AM', '1:15 PM', '3 PM', '4:45 PM'];

type Line = readonly ['agent' | 'user', string];

function conversation(rng: Rng, pathway: Pathway, status: NormalizedCallStatus): Line[] {
  const name = pick(rng, FIRST_NAMES);
  const greeting: Line = [
    'agent',
    'Thank you for calling Demo Company, this is Ava. How can I help you today?',
  ];
  if (status === 'failed') return [greeting];
  const transferLine: Line = [
    'agent',
    'Let me connect you with a specialist who can take this further. One moment please.',
  ];
  let lines: Line[];
  if (pathway === 'Sales') {
    const product = pick(rng, PRODUCTS);
    lines = [
      greeting,
      ['user', `Hi, this is ${name}. I'd like to know more about ${product}.`],
      [
        'agent',
        `Happy to help, ${name}. ${product[0].toUpperCase()}${product.slice(1)} includes priority support and unlimited users. Is this for a team?`,
      ],
      ['user', `Yes, about ${int(rng, 5, 40)} people. What would that cost per month?`],
      [
        'agent',
        'For a team that size you would qualify for our volume discount. I can e-mail you a quote right away.',
      ],
      ['user', 'That would be great, thanks.'],
    ];
  } else if (pathway === 'Support') {
    const issue = pick(rng, ISSUES);
    lines = [
      greeting,
      ['user', `Hello, it's ${name}. ${issue[0].toUpperCase()}${issue.slice(1)}.`],
      ['agent', "I'm sorry about that. Could you confirm the e-mail address on your account?"],
      ['user', `Sure, it's ${name.toLowerCase()}@example.com.`],
      ['agent', 'Thank you. I can see the problem on our side and I have opened a ticket for you.'],
    ];
  } else {
    const day = pick(rng, DAYS);
    const time = pick(rng, TIMES);
    lines = [
      greeting,
      ['user', `Hi, I'd like to book an appointment for ${day}, if possible.`],
      ['agent', `Let me check. I have ${time} available on ${day}. Would that work for you?`],
      ['user', 'Yes, that works.'],
      [
        'agent',
        `Perfect, ${name}. You're booked for ${day} at ${time}. You'll get a text confirmation shortly.`,
      ],
    ];
  }
  if (status === 'transferred') return [...lines.slice(0, 3), transferLine];
  if (status === 'active') return lines.slice(0, 3);
  return [
    ...lines,
    ['agent', 'Is there anything else I can help you with today?'],
    ['user', "No, that's all. Thanks!"],
  ];
}

function duration(rng: Rng, status: NormalizedCallStatus): number {
  switch (status) {
    case 'failed':
      return int(rng, 0, 15);
    case 'active':
      return int(rng, 20, 120);
    case 'transferred':
      return int(rng, 45, 360);
    default:
      // Most calls take one to four minutes, a few run long.
      return rng() < 0.85 ? int(rng, 45, 240) : int(rng, 240, 720);
  }
}

function phoneNumber(rng: Rng): string {
  const areas = ['212', '305', '312', '415', '512', '617', '702', '713', '646', '818'];
  return `+1${pick(rng, areas)}${int(rng, 200, 999)}${String(int(rng, 0, 9999)).padStart(4, '0')}`;
}

/**
 * What the provider would say the call achieved: a summary, who answered and ended it, a post-call
 * tag and the variables the agent collected, consistent with the conversation.
 */
function insightsFor(rng: Rng, pathway: Pathway, status: NormalizedCallStatus, lines: Line[]): CallInsights {
  const none: CallInsights = {
    summary: null,
    answeredBy: null,
    endedBy: null,
    errorMessage: null,
    dispositionTag: null,
    analysis: null,
    variables: null,
  };
  if (status === 'failed') {
    return rng() < 0.6
      ? { ...none, answeredBy: 'no-answer', summary: 'Nobody answered the call.' }
      : { ...none, errorMessage: 'Call failed: the carrier rejected the call' };
  }
  if (status === 'active') return { ...none, answeredBy: 'human' };
  const said = (pattern: RegExp) => lines.map(([, text]) => pattern.exec(text)).find((m) => m !== null);
  const base = { ...none, answeredBy: 'human', endedBy: rng() < 0.7 ? 'user' : 'assistant' };
  if (status === 'transferred')
    return {
      ...base,
      endedBy: 'assistant',
      summary: `The ${pathway.toLowerCase()} caller was transferred to a specialist.`,
    };
  if (pathway === 'Booking') {
    const slot = said(/I have (.+) available on (\w+)/);
    return {
      ...base,
      dispositionTag: 'APPOINTMENT_BOOKED',
      summary: `The caller booked an appointment${slot ? ` for ${slot[2]} at ${slot[1]}` : ''}.`,
      analysis: { appointment_booked: true },
      variables: slot ? { appointment_day: slot[2], appointment_time: slot[1] } : null,
    };
  }
  if (pathway === 'Sales') {
    const team = said(/about (\d+) people/);
    const interested = rng() < 0.7;
    return {
      ...base,
      dispositionTag: interested ? 'INTERESTED' : 'NOT_INTERESTED',
      summary: interested
        ? `The caller asked for pricing for a team${team ? ` of ${team[1]}` : ''} and wants a quote by e-mail.`
        : 'The caller asked about pricing and is not interested for now.',
      analysis: { interested },
      variables: team ? { team_size: Number(team[1]) } : null,
    };
  }
  const callback = said(/call me back/i) !== undefined;
  return {
    ...base,
    dispositionTag: callback ? 'CALLBACK_REQUESTED' : 'TICKET_OPENED',
    summary: callback
      ? 'The caller reported a problem; a ticket was opened and they asked to be called back with an update.'
      : 'The caller reported a problem and a ticket was opened.',
    analysis: { resolved: false, callback_requested: callback },
  };
}

/**
 * When each line was spoken, as a platform with message timing reports it: a line
 * lasts by its words (about 160 a minute); the agent answers in 0.6–1.8 s, now and then slowly or
 * after a silence; the caller sometimes talks over the agent. Drawn from its own generator, seeded
 * by the call, so the rest of a sample call stays as it was before lines had times.
 */
function timedLines(lines: Line[], createdAt: number, seed: string): NormalizedTranscriptEntry[] {
  const rng = createRng(hashSeed(`timing-${seed}`));
  let at = 400;
  return lines.map(([role, text]) => {
    const words = text.split(/\s+/).length;
    const length = Math.round(words * 375 + rng() * 400);
    const start = at;
    const end = start + length;
    const roll = rng();
    const next =
      role === 'user'
        ? roll < 0.015
          ? 3200 + rng() * 3500 // a slow answer, or dead air: now and then, as a good agent
          : 600 + rng() * 1200
        : roll < 0.05
          ? -(350 + rng() * 700) // the caller cuts in
          : 300 + rng() * 900;
    at = Math.max(start + 200, Math.round(end + next));
    return { role, text, timestamp: new Date(createdAt + start).toISOString(), startMs: start, endMs: end };
  });
}

/** The demo agent's own line. */
export const DEMO_AGENT_NUMBER = '+14155550123';

export interface SampleCallOptions {
  providerCallId: string;
  createdAt: number;
  /** The recording URL to store, or null when the call should have none. */
  recordingUrl: (providerCallId: string) => string | null;
}

/** One realistic call drawn from rng. */
export function sampleCall(rng: Rng, options: SampleCallOptions): IncomingCall {
  const pathway = weighted(rng, [
    ['Sales', 4],
    ['Support', 4],
    ['Booking', 3],
  ] as const);
  const status = weighted(rng, STATUS_MIX[pathway]);
  const seconds = duration(rng, status);
  const caller = phoneNumber(rng);
  const inbound = rng() < 0.8;
  const lines = conversation(rng, pathway, status);
  // Some support callers want to hear back from a person: the calls "Needs attention" is for.
  if (pathway === 'Support' && status === 'completed' && rng() < 0.25)
    lines.splice(
      lines.length - 2,
      0,
      ['user', 'Could someone call me back this afternoon with an update?'],
      ['agent', 'Of course, a colleague will call you back this afternoon.'],
    );
  const transcript = timedLines(lines, options.createdAt, options.providerCallId);
  // Recordings exist for calls that connected, most of the time.
  const connected = status === 'completed' || status === 'transferred';
  const hasRecording = connected && rng() < 0.75;
  return {
    providerCallId: options.providerCallId,
    fromNumber: inbound ? caller : DEMO_AGENT_NUMBER,
    toNumber: inbound ? DEMO_AGENT_NUMBER : caller,
    durationSeconds: seconds,
    status,
    pathwayId: null,
    pathway,
    createdAt: options.createdAt,
    recordingUrl: hasRecording ? options.recordingUrl(options.providerCallId) : null,
    transcript,
    isProxy: false,
    // What the provider would charge the agency: about nine cents a minute.
    priceUsd: Math.round(seconds * 0.0015 * 1000) / 1000,
    insights: insightsFor(rng, pathway, status, lines),
    conversation: {
      precision: 'message',
      endedBy: status === 'transferred' ? 'transfer' : 'caller',
      sentiment: null,
    },
    source: 'sample',
  };
}

/** Calendar day number (UTC) of an instant. */
export const dayIndexOf = (ms: number) => Math.floor(ms / DAY_MS);

export const demoRecordingUrl = (providerCallId: string) =>
  `https://recordings.demo.invalid/${providerCallId}.mp3`;

/**
 * Every demo call of one UTC day, oldest first, whatever the time now: the day's number seeds the
 * PRNG and names the calls (`demo-{day}-{n}`), so generating a day twice gives the same calls.
 */
export function demoCallsForDay(dayIndex: number): IncomingCall[] {
  const rng = createRng(hashSeed(`demo-day-${dayIndex}`));
  const weekday = new Date(dayIndex * DAY_MS).getUTCDay();
  const weekend = weekday === 0 || weekday === 6;
  const count = weekend ? int(rng, 18, 26) : int(rng, 26, 40);
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const hour = weighted(rng, HOUR_WEIGHTS);
    times.push(dayIndex * DAY_MS + hour * 3_600_000 + int(rng, 0, 3_599_999));
  }
  times.sort((a, b) => a - b);
  return times.map((createdAt, n) =>
    sampleCall(rng, { providerCallId: `demo-${dayIndex}-${n}`, createdAt, recordingUrl: demoRecordingUrl }),
  );
}

/** Demo calls created in (from, to]. */
export function demoCallsBetween(from: number, to: number): IncomingCall[] {
  const out: IncomingCall[] = [];
  for (let day = dayIndexOf(from); day <= dayIndexOf(to); day++) {
    for (const call of demoCallsForDay(day))
      if (call.createdAt > from && call.createdAt <= to) out.push(call);
  }
  return out;
}

/**
 * Sample calls for a real client ("add sample data"), spread over the last `days` days. They get
 * no recording: the client's provider has no audio for them, and a play button that always
 * fails would mislead.
 */
export function clientSampleCalls(now: number, count: number, seed: string, days = 7): IncomingCall[] {
  const rng = createRng(hashSeed(seed));
  const calls: IncomingCall[] = [];
  for (let i = 0; i < count; i++) {
    const createdAt = now - Math.floor(rng() * days * DAY_MS);
    calls.push(
      sampleCall(rng, { providerCallId: `sample-${seed}-${i}`, createdAt, recordingUrl: () => null }),
    );
  }
  return calls.sort((a, b) => a.createdAt - b.createdAt);
}
