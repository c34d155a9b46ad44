/**
 * Conversation quality's e2e world (quality.spec.ts): a client in a non-UTC zone whose
 * calls are stored through the real calls store with timed transcripts and the conversation each
 * platform gives, so the store measures them as it measures a delivery. The figures below are
 * computed by hand; the spec asserts them.
 *
 * This period (the last 7 local days):
 * - SLOW_SILENT (segment timing): the hand-computed call of src/server/quality/measure.test.ts:
 *   answers 1.2, 4.5 and 6.0 s (p50 4.5 s, p90 6.0 s), the caller interrupting once at 0:11.5,
 *   dead air of 4.5 s and 6.0 s (the longest from 0:22): Needs attention by the default
 *   thresholds ("Slow answers: p90 6.0 s", "Dead air of 6.0 s").
 * - QUICK (word timing): answers 0.8 and 1.0 s, no interruption, no dead air.
 * - BILLING (message timing): answers 1.5, 2.0 and 2.5 s, the caller interrupting once at 0:19.
 * - WRONG_NUMBER (order only): three lines with clock times and no durations.
 * Medians over the three timed calls: p50 2.0 s (p90 4.5 s), p90 2.5 s (p90 6.0 s), caller
 * interruptions 1, longest dead air 0 s (p90 6.0 s).
 *
 * The period before (9 days ago): EARLIER (segment timing): answers 3.0 and 2.0 s, dead air 3.0 s.
 */
import { randomUUID } from 'node:crypto';
import type { VoiceSim } from '../../../sim/voice-provider';
import { hashPassword } from '../../../src/server/auth/passwords';
import { createCallsRepository, type IncomingCall } from '../../../src/server/calls/write/calls-repository';
import { newWebhookToken } from '../../../src/server/clients/webhook-token';
import type { AppDeps } from '../../../src/server/context';
import {
  NO_INSIGHTS,
  type NormalizedConversation,
  type NormalizedTranscriptEntry,
} from '../../../src/server/providers/voice/types';

export const QUALITY_CLIENT = {
  email: 'e2e-quality@example.com',
  password: 'e2e-quality-password',
  company: 'Clear Voice Dental',
  apiKey: 'sim_e2e_quality_key',
  timezone: 'America/Chicago',
};

type Line = [role: 'agent' | 'user', startMs: number, endMs: number, text: string];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const QUALITY_CALLS = {
  SLOW_SILENT: 'quality-slow-silent',
  QUICK: 'quality-quick',
  BILLING: 'quality-billing',
  WRONG_NUMBER: 'quality-wrong-number',
  EARLIER: 'quality-earlier',
} as const;

interface SeededCall {
  providerCallId: string;
  ago: number;
  durationSeconds: number;
  fromNumber: string;
  lines: Line[];
  conversation: NormalizedConversation;
  summary: string;
}

const CALLS: SeededCall[] = [
  {
    providerCallId: QUALITY_CALLS.SLOW_SILENT,
    ago: 2 * HOUR,
    durationSeconds: 60,
    fromNumber: '+15125550101',
    conversation: { precision: 'segment', endedBy: 'caller', sentiment: 'Neutral' },
    summary: 'The caller moved a cleaning from Thursday to Tuesday at 2 PM.',
    lines: [
      ['agent', 0, 3000, 'Thanks for calling Clear Voice Dental, this is Ava. How can I help?'],
      ['user', 3500, 6000, 'Hi, I would like to move my cleaning to next week.'],
      ['agent', 7200, 12_000, 'Of course. Can I have your name and date of birth, please?'],
      ['user', 11_500, 13_000, 'Jordan Lee, March third.'],
      ['agent', 17_500, 20_000, 'Thank you, Jordan. I see your cleaning on Thursday at ten.'],
      ['user', 19_900, 22_000, 'Yes, could it be Tuesday instead?'],
      ['agent', 28_000, 30_000, 'Tuesday at two is free. I have booked it for you.'],
      ['agent', 30_500, 31_000, 'Goodbye!'],
    ],
  },
  {
    providerCallId: QUALITY_CALLS.QUICK,
    ago: 3 * HOUR,
    durationSeconds: 30,
    fromNumber: '+15125550102',
    conversation: { precision: 'word', endedBy: 'agent', sentiment: 'Positive' },
    summary: 'A new patient booked a first visit on Friday at 9.',
    lines: [
      ['agent', 0, 2000, 'Good morning, Clear Voice Dental.'],
      ['user', 2500, 5000, 'Do you take new patients?'],
      ['agent', 5800, 9000, 'We do. Would you like to book a first visit?'],
      ['user', 9500, 12_000, 'Yes please, Friday if possible.'],
      ['agent', 13_000, 16_000, 'Friday at nine is yours. See you then!'],
    ],
  },
  {
    providerCallId: QUALITY_CALLS.BILLING,
    ago: 4 * HOUR,
    durationSeconds: 40,
    fromNumber: '+15125550103',
    conversation: { precision: 'message', endedBy: 'caller', sentiment: null },
    summary: 'The caller asked about a balance they believe was paid.',
    lines: [
      ['agent', 0, 3000, 'Clear Voice Dental, how can I help?'],
      ['user', 3200, 6000, 'I have a question about my bill.'],
      ['agent', 8000, 11_000, 'Sure, let me pull up your account.'],
      ['user', 11_200, 14_000, 'It is under Sam Rivera.'],
      ['agent', 16_500, 20_000, 'Thanks, Sam. I see a balance of forty dollars from your last visit.'],
      ['user', 19_000, 22_000, 'Wait, I paid that already.'],
      ['agent', 23_500, 26_000, 'Let me check that for you.'],
    ],
  },
  {
    providerCallId: QUALITY_CALLS.EARLIER,
    ago: 9 * DAY,
    durationSeconds: 30,
    fromNumber: '+15125550105',
    conversation: { precision: 'segment', endedBy: 'caller', sentiment: null },
    summary: 'The caller asked for the opening hours.',
    lines: [
      ['agent', 0, 2000, 'Clear Voice Dental, good afternoon.'],
      ['user', 2500, 5000, 'When are you open on Saturdays?'],
      ['agent', 8000, 10_000, 'From nine to one on Saturdays.'],
      ['user', 10_500, 12_000, 'Thanks.'],
      ['agent', 14_000, 16_000, 'You are welcome, goodbye!'],
    ],
  },
];

function incoming(now: number, call: SeededCall): IncomingCall {
  const transcript: NormalizedTranscriptEntry[] = call.lines.map(([role, startMs, endMs, text]) => ({
    role,
    text,
    startMs,
    endMs,
  }));
  return {
    ...base(now - call.ago, call.providerCallId, call.fromNumber, call.durationSeconds),
    transcript,
    conversation: call.conversation,
    insights: {
      ...NO_INSIGHTS,
      answeredBy: 'human',
      endedBy: call.conversation.endedBy === 'agent' ? 'assistant' : 'user',
      summary: call.summary,
    },
  };
}

function base(createdAt: number, providerCallId: string, fromNumber: string, durationSeconds: number) {
  return {
    providerCallId,
    fromNumber,
    toNumber: '+15125550100',
    durationSeconds,
    status: 'completed' as const,
    pathwayId: null,
    pathway: 'Booking',
    createdAt,
    recordingUrl: null,
    isProxy: false,
    priceUsd: null,
    source: 'webhook' as const,
  };
}

/** Bland's post-call transcript: a clock time per line, no durations (order only). */
function wrongNumber(now: number): IncomingCall {
  const createdAt = now - 5 * HOUR;
  const at = (seconds: number) => new Date(createdAt + seconds * 1000).toISOString();
  return {
    ...base(createdAt, QUALITY_CALLS.WRONG_NUMBER, '+15125550104', 20),
    transcript: [
      { role: 'agent', text: 'Hello, this is Clear Voice Dental.', timestamp: at(0) },
      { role: 'user', text: 'Sorry, wrong number.', timestamp: at(3) },
      { role: 'agent', text: 'No problem, goodbye!', timestamp: at(5) },
    ],
    conversation: { precision: 'approx', endedBy: 'agent', sentiment: null },
    insights: { ...NO_INSIGHTS, answeredBy: 'human', endedBy: 'assistant', summary: 'A wrong number.' },
  };
}

export async function seedQualityFixtures(deps: AppDeps, voice: VoiceSim): Promise<void> {
  const t = deps.now();
  voice.addKey(QUALITY_CLIENT.apiKey);
  const client = {
    id: randomUUID(),
    per_minute_rate_cents: 15,
    timezone: QUALITY_CLIENT.timezone,
  };
  await deps.db
    .insertInto('clients')
    .values({
      ...client,
      first_name: 'Quinn',
      last_name: 'West',
      email: QUALITY_CLIENT.email,
      company_name: QUALITY_CLIENT.company,
      account_type: 'individual',
      is_active: 1,
      bland_api_key_enc: deps.secrets.encrypt(QUALITY_CLIENT.apiKey),
      api_key_status: 'valid',
      ...newWebhookToken(deps.secrets).columns,
      onboarding_status: 'active',
      password_hash: await hashPassword(QUALITY_CLIENT.password),
      created_at: t - 30 * DAY,
      updated_at: t,
    })
    .execute();
  await createCallsRepository(deps.db, deps.now).upsertCalls(client, [
    ...CALLS.map((call) => incoming(t, call)),
    wrongNumber(t),
  ]);
}
