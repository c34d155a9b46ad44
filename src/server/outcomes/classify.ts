/**
 * Which outcome a call has: the first of the client's outcomes whose rules all match the call,
 * else "Other". Pure; the same function classifies a call as it arrives and when the client
 * changes its outcomes.
 */
import { OTHER_OUTCOME, type Outcome, type OutcomeRule } from '../../contract/outcomes';
import type { QualityMetric } from '../../contract/quality';

/** What the rules can read of a call. */
export interface CallFacts {
  status: string;
  durationSeconds: number;
  answeredBy: string | null;
  dispositionTag: string | null;
  summary: string | null;
  /** The transcript's lines as one text. */
  transcript: string | null;
  /** The caller's lines only (what the caller asked for, not what the agent said). */
  callerTranscript: string | null;
  variables: Record<string, unknown> | null;
  /** The call's quality figures; null when it was not measured, a figure null when its precision cannot support it. */
  quality: Record<QualityMetric, number | null> | null;
}

function variable(variables: Record<string, unknown> | null, path: string): unknown {
  let value: unknown = variables;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    // Checked just above: a non-null, non-array object
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function read(facts: CallFacts, field: string): unknown {
  switch (field) {
    case 'disposition_tag':
      return facts.dispositionTag;
    case 'answered_by':
      return facts.answeredBy;
    case 'status':
      return facts.status;
    case 'transferred':
      return facts.status === 'transferred';
    case 'duration':
      return facts.durationSeconds;
    case 'summary':
      return facts.summary;
    case 'transcript':
      return facts.transcript;
    default:
      if (field.startsWith('quality.'))
        // Rule fields are validated against QUALITY_METRICS before they are stored
        return facts.quality?.[field.slice('quality.'.length) as QualityMetric] ?? null;
      return field.startsWith('variables.')
        ? variable(facts.variables, field.slice('variables.'.length))
        : undefined;
  }
}

const text = (v: unknown) =>
  v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/**
 * A call's texts as rules compare them (lower case), each folded once however many rules read it:
 * folding a 900 KB transcript costs about a millisecond, and a list may hold 200 rules.
 */
export type FoldedTexts = Map<string, string>;

function folded(cache: FoldedTexts, field: string, actual: unknown): string {
  let value = cache.get(field);
  if (value === undefined) {
    value = text(actual).toLowerCase();
    cache.set(field, value);
  }
  return value;
}

/** Text compares without case or surrounding spaces; booleans and numbers by their value. */
export function ruleMatches(facts: CallFacts, rule: OutcomeRule, cache: FoldedTexts = new Map()): boolean {
  const actual = read(facts, rule.field);
  if (actual === undefined || actual === null) return false;
  switch (rule.op) {
    case 'equals':
      if (typeof actual === 'number' || typeof rule.value === 'number')
        return Number(actual) === Number(rule.value);
      return folded(cache, rule.field, actual).trim() === text(rule.value).trim().toLowerCase();
    case 'contains':
      return folded(cache, rule.field, actual).includes(text(rule.value).trim().toLowerCase());
    case 'gte':
      return Number(actual) >= Number(rule.value);
    case 'lte':
      return Number(actual) <= Number(rule.value);
    default:
      return false;
  }
}

/** What a rule costs to check: the length of the text it reads (1 for a number or a flag). */
function ruleCost(facts: CallFacts, rule: OutcomeRule): number {
  if (rule.op === 'gte' || rule.op === 'lte') return 1;
  const actual = read(facts, rule.field);
  return typeof actual === 'string' ? Math.max(1, actual.length) : 1;
}

/**
 * The classification one rule at a time, each step yielding what that rule cost (rules × text
 * size), so a long run (a preview, a re-classification) can count its work and pause between
 * rules; the result is the outcome's name.
 */
export function* classifySteps(facts: CallFacts, outcomes: readonly Outcome[]): Generator<number, string> {
  const cache: FoldedTexts = new Map();
  for (const outcome of outcomes) {
    if (outcome.rules.length === 0) continue;
    let all = true;
    for (const rule of outcome.rules) {
      const matches = ruleMatches(facts, rule, cache);
      yield ruleCost(facts, rule);
      if (!matches) {
        all = false;
        break;
      }
    }
    if (all) return outcome.name;
  }
  return OTHER_OUTCOME;
}

export function classify(facts: CallFacts, outcomes: readonly Outcome[]): string {
  const steps = classifySteps(facts, outcomes);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
