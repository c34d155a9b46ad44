/**
 * Outcomes: what each call achieved, in the client's own terms. A client keeps an
 * ordered list; a call takes the first outcome all of whose rules match, else "Other".
 */
import { z } from 'zod';
import { Call } from './calls';
import { QUALITY_RULE_FIELDS } from './quality';

export const OTHER_OUTCOME = 'Other';
export const OTHER_OUTCOME_COLOR = '#64748b';
export const MAX_OUTCOMES = 20;
export const MAX_RULES_PER_OUTCOME = 10;

export const OUTCOME_FIELDS = [
  'disposition_tag',
  'answered_by',
  'status',
  'transferred',
  'duration',
  'summary',
  'transcript',
  ...QUALITY_RULE_FIELDS,
] as const;
/** `variables.NAME` reads one of the call's variables (dots reach into nested objects). */
export const VARIABLE_FIELD = /^variables\.[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64}){0,3}$/;
export const OUTCOME_OPS = ['equals', 'contains', 'gte', 'lte'] as const;
export type OutcomeOp = (typeof OUTCOME_OPS)[number];

export const OUTCOME_MESSAGES = {
  unknownField: `Unknown field: use one of ${OUTCOME_FIELDS.join(', ')} or variables.NAME`,
  unknownOp: `Unknown op: use one of ${OUTCOME_OPS.join(', ')}`,
  numericOp: 'gte and lte compare numbers: give a number',
  duplicateName: 'Each outcome needs its own name',
  reservedName: `"${OTHER_OUTCOME}" is the name of calls no outcome matches`,
} as const;

export const OutcomeRule = z
  .object({
    field: z
      .string()
      .trim()
      .max(80)
      .refine(
        (f) => OUTCOME_FIELDS.some((known) => known === f) || VARIABLE_FIELD.test(f),
        OUTCOME_MESSAGES.unknownField,
      ),
    op: z.string().refine((op) => OUTCOME_OPS.some((known) => known === op), OUTCOME_MESSAGES.unknownOp),
    value: z.union([z.string().trim().max(200), z.number().finite(), z.boolean()]),
  })
  .superRefine((rule, ctx) => {
    if ((rule.op === 'gte' || rule.op === 'lte') && !Number.isFinite(Number(rule.value)))
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: OUTCOME_MESSAGES.numericOp, path: ['value'] });
  })
  // The refine above let only OUTCOME_OPS through, which zod's string type does not carry.
  .transform((rule) => rule as { field: string; op: OutcomeOp; value: string | number | boolean });
export type OutcomeRule = z.output<typeof OutcomeRule>;

export const Outcome = z.object({
  name: z.string().trim().min(1, 'Required').max(60),
  color: z
    .string()
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, 'Use a colour like #16a34a'),
  /** Dollars a call with this outcome is worth to the client; null when it has no set value. */
  value: z.number().finite().min(0).max(1_000_000).nullable().optional().default(null),
  /** Calls with this outcome appear in "Needs attention". */
  needsAttention: z.boolean().optional().default(false),
  /** The client is told when a call has this outcome (once notifications exist). */
  notify: z.boolean().optional().default(false),
  rules: z.array(OutcomeRule).min(1, 'Add at least one rule').max(MAX_RULES_PER_OUTCOME),
});
export type Outcome = z.output<typeof Outcome>;

/**
 * An outcome as a body sends it: value, needsAttention and notify left out keep what the
 * stored outcome of the same name (any case) has; a new outcome starts without a value, unflagged.
 */
export const OutcomePatch = Outcome.extend({
  value: z.number().finite().min(0).max(1_000_000).nullable().optional(),
  needsAttention: z.boolean().optional(),
  notify: z.boolean().optional(),
});
export type OutcomePatch = z.output<typeof OutcomePatch>;

/** An ordered list of outcomes: at most MAX_OUTCOMES, each its own name, none named "Other". */
function outcomeList<T extends typeof Outcome | typeof OutcomePatch>(item: T) {
  return z
    .array(item)
    .max(MAX_OUTCOMES)
    .superRefine((outcomes, ctx) => {
      const seen = new Set<string>();
      outcomes.forEach((o, i) => {
        const key = o.name.toLowerCase();
        if (key === OTHER_OUTCOME.toLowerCase())
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            message: OUTCOME_MESSAGES.reservedName,
            path: [i, 'name'],
          });
        else if (seen.has(key))
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            message: OUTCOME_MESSAGES.duplicateName,
            path: [i, 'name'],
          });
        seen.add(key);
      });
    });
}

export const Outcomes = outcomeList(Outcome);

/** The list a body sends: it replaces the stored list, its outcomes filled by `fillOutcomes`. */
export const OutcomePatches = outcomeList(OutcomePatch);

/** The sent list with what each outcome left out taken from the stored outcome of its name. */
export function fillOutcomes(sent: OutcomePatch[], stored: Outcome[]): Outcome[] {
  const byName = new Map(stored.map((o) => [o.name.toLowerCase(), o]));
  return sent.map((o) => {
    const before = byName.get(o.name.toLowerCase());
    return {
      ...o,
      value: o.value !== undefined ? o.value : (before?.value ?? null),
      needsAttention: o.needsAttention ?? before?.needsAttention ?? false,
      notify: o.notify ?? before?.notify ?? false,
    };
  });
}

/** POST /api/client/outcomes/preview (and the admin's): an unsaved list, filled as a save would be. */
export const OutcomesBody = z.object({ outcomes: OutcomePatches });

/** PUT /api/client/outcomes (and the admin's): a patch; the list left out stays as it is. */
export const OutcomesUpdateBody = z.object({ outcomes: OutcomePatches.optional() });

/** Where re-classifying the client's calls after a change stands. */
export const Reclassification = z.object({
  state: z.enum(['idle', 'running', 'done']),
  done: z.number(),
  total: z.number(),
});
export type Reclassification = z.infer<typeof Reclassification>;

export const OutcomesState = z.object({ outcomes: z.array(Outcome), reclassification: Reclassification });
export type OutcomesState = z.infer<typeof OutcomesState>;

/** A new client's outcomes: what every voice agent's calls can be told apart by without setup. */
export const DEFAULT_OUTCOMES: Outcome[] = [
  {
    name: 'Reached a person',
    color: '#16a34a',
    value: null,
    needsAttention: false,
    notify: false,
    rules: [
      { field: 'answered_by', op: 'equals', value: 'human' },
      { field: 'status', op: 'equals', value: 'completed' },
    ],
  },
  {
    name: 'Voicemail',
    color: '#7c3aed',
    value: null,
    needsAttention: false,
    notify: false,
    rules: [{ field: 'answered_by', op: 'equals', value: 'voicemail' }],
  },
  {
    name: 'No answer',
    color: '#ca8a04',
    value: null,
    needsAttention: false,
    notify: false,
    rules: [{ field: 'answered_by', op: 'equals', value: 'no-answer' }],
  },
  {
    name: 'Transferred',
    color: '#2563eb',
    value: null,
    needsAttention: false,
    notify: false,
    rules: [{ field: 'transferred', op: 'equals', value: true }],
  },
  {
    name: 'Failed',
    color: '#dc2626',
    value: null,
    // Failed calls need attention anyway (see ATTENTION_REASONS); no second reason for the same.
    needsAttention: false,
    notify: false,
    rules: [{ field: 'status', op: 'equals', value: 'failed' }],
  },
];

/** Rules whose calls a business wants fewer of: they failed or reached no one. */
const UNWANTED_RULES: { field: string; values: readonly string[] }[] = [
  { field: 'status', values: ['failed', 'error', 'busy', 'no-answer', 'canceled'] },
  { field: 'answered_by', values: ['no-answer', 'voicemail', 'busy', 'machine'] },
];

/**
 * Which way a change of the outcome's count is good news: down for outcomes the client flagged as
 * needing attention or whose rules pick failed or unanswered calls, up for the rest. The outcome
 * cards colour their change by it ("Failed +150%" is bad news).
 */
export function outcomeGoodWhen(outcome: Pick<Outcome, 'needsAttention' | 'rules'>): 'up' | 'down' {
  if (outcome.needsAttention) return 'down';
  const unwanted = outcome.rules.some(
    (r) =>
      r.op === 'equals' &&
      UNWANTED_RULES.some((u) => u.field === r.field && u.values.includes(String(r.value).toLowerCase())),
  );
  return unwanted ? 'down' : 'up';
}

/** GET /api/client/outcomes/summary: one entry per outcome, in the client's order, "Other" last. */
export const OutcomeSummaryItem = z.object({
  name: z.string(),
  color: z.string(),
  count: z.number(),
  /** Dollars: count × the outcome's value; null when the outcome has no value. */
  value: z.number().nullable(),
  /** Percent change of the count against the previous window, as for stats. */
  change: z.number(),
  /** The count in the previous window (a rise from none is shown as "new"). */
  previousCount: z.number(),
  /** Which way a change is good news (outcomeGoodWhen); null for "Other", which means neither. */
  goodWhen: z.enum(['up', 'down']).nullable(),
});
export type OutcomeSummaryItem = z.infer<typeof OutcomeSummaryItem>;
export const OutcomeSummary = z.array(OutcomeSummaryItem);

/** Why a call needs a person ("Needs attention"), in the words the dashboard shows. */
export const ATTENTION_REASONS = {
  failed: 'The call failed',
  error: 'The call ended with an error',
  callback: 'The caller asked for a call-back',
  short: 'Very short connected call',
  outcome: (name: string) => `Outcome: ${name}`,
} as const;
/** A connected call shorter than this probably dropped or was hung up on. */
export const SHORT_CALL_SECONDS = 15;

/** GET /api/client/attention: open calls a person should look at, newest first. */
export const AttentionList = z.object({
  total: z.number(),
  calls: z.array(Call.extend({ attentionReasons: z.array(z.string()) })),
});
export type AttentionList = z.infer<typeof AttentionList>;

/** POST /api/client/calls/{id}/handled: kept as first marked (a second mark changes nothing). */
export const HandledResponse = z.object({
  success: z.literal(true),
  handledAt: z.string(),
  handledBy: z.string(),
});
export type HandledResponse = z.infer<typeof HandledResponse>;

/** A window the attention list would ignore: it is every open call, whatever its date. */
const WINDOW_PARAMS = ['dateRange', 'from', 'to', 'startDate', 'endDate'] as const;
export const ATTENTION_WINDOW_MESSAGE = 'The attention list holds every open call: it takes no date window';

export const AttentionQuery = z
  .object({
    limit: z
      .string()
      .regex(/^\d+$/, 'Expected a whole number')
      .transform(Number)
      .refine((n) => n >= 1 && n <= 100, 'Number must be between 1 and 100')
      .optional()
      .default('50'),
  })
  // Kept to be refused: a window sent here would otherwise be dropped without a word.
  .passthrough()
  .superRefine((q, ctx) => {
    for (const name of WINDOW_PARAMS)
      if (name in q)
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: ATTENTION_WINDOW_MESSAGE, path: [name] });
  })
  .transform(({ limit }) => ({ limit }));

/** GET …/outcomes-over-time: calls per outcome per local day (or hour), oldest first. */
export const OutcomePoint = z.object({
  /** YYYY-MM-DD, or YYYY-MM-DDTHH:00 for hourly points (as the calls-over-time chart). */
  date: z.string(),
  /** Calls per outcome name; outcomes without calls that day are absent. */
  counts: z.record(z.number()),
});
export type OutcomePoint = z.infer<typeof OutcomePoint>;
export const OutcomePoints = z.array(OutcomePoint);

/** POST …/outcomes/preview looks back this many days. */
export const PREVIEW_DAYS = 30;
/** …and classifies at most this many of the latest calls in them (a large client is sampled). */
export const PREVIEW_MAX_CALLS = 20_000;

/** What an unsaved list would make of the recent calls: one entry per outcome, "Other" last. */
export const OutcomePreview = z.object({
  days: z.number(),
  /** Calls classified; fewer than the window holds when it held more than PREVIEW_MAX_CALLS. */
  scanned: z.number(),
  /** True when only the latest PREVIEW_MAX_CALLS calls of the window were classified. */
  sampled: z.boolean(),
  counts: z.array(z.object({ name: z.string(), count: z.number() })),
});
export type OutcomePreview = z.infer<typeof OutcomePreview>;
