/**
 * Which outcome a call has: the first of the client's outcomes whose rules all match the call,
 * else "Other". Pure; the same function classifies a call as it arrives and when the client
 * changes its outcomes.
 */
import { OTHER_OUTCOME, type Outcome, type OutcomeRule } from '../../contract/outcomes';

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
}

function variable(variables: Record<string, unknown> | null, path: string): unknown {
  let value: unknown = variables;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
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
      return field.startsWith('variables.')
        ? variable(facts.variables, field.slice('variables.'.length))
        : undefined;
  }
}

const text = (v: unknown) =>
  v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** Text compares without case or surrounding spaces; booleans and numbers by their value. */
export function ruleMatches(facts: CallFacts, rule: OutcomeRule): boolean {
  const actual = read(facts, rule.field);
  if (actual === undefined || actual === null) return false;
  switch (rule.op) {
    case 'equals':
      if (typeof actual === 'number' || typeof rule.value === 'number')
        return Number(actual) === Number(rule.value);
      return text(actual).trim().toLowerCase() === text(rule.value).trim().toLowerCase();
    case 'contains':
      return text(actual).toLowerCase().includes(text(rule.value).trim().toLowerCase());
    case 'gte':
      return Number(actual) >= Number(rule.value);
    case 'lte':
      return Number(actual) <= Number(rule.value);
    default:
      return false;
  }
}

export function classify(facts: CallFacts, outcomes: readonly Outcome[]): string {
  for (const outcome of outcomes) {
    if (outcome.rules.length > 0 && outcome.rules.every((rule) => ruleMatches(facts, rule)))
      return outcome.name;
  }
  return OTHER_OUTCOME;
}
