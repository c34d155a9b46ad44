/**
 * The Outcomes tab's editable copy of the list: every value as the inputs hold it
 * (text), turned into the API's shape on save or preview. Pure, so the editor's rules are tested
 * without a browser.
 */
import {
  OTHER_OUTCOME,
  type OUTCOME_FIELDS,
  type Outcome,
  type OutcomeOp,
  type OutcomeRule,
} from '../../../contract/outcomes';

/** A rule's field as the editor offers it: the fixed fields, or "a variable" with its name apart. */
export type DraftField = (typeof OUTCOME_FIELDS)[number] | 'variables';

export interface DraftRule {
  field: DraftField;
  /** The variable's name when field is 'variables'. */
  variable: string;
  op: OutcomeOp;
  value: string;
}

export interface DraftOutcome {
  /** Stable key for React while names change. */
  key: string;
  name: string;
  color: string;
  /** Dollars as typed; '' for none. */
  value: string;
  needsAttention: boolean;
  notify: boolean;
  rules: DraftRule[];
}

export const FIELD_LABELS: Record<DraftField, string> = {
  disposition_tag: "Provider's tag",
  answered_by: 'Who answered',
  status: 'Status',
  transferred: 'Transferred',
  duration: 'Duration (seconds)',
  summary: 'Summary',
  transcript: 'Transcript',
  variables: 'A variable',
  'quality.responseLatencyP50Ms': 'Response time, median (ms)',
  'quality.responseLatencyP90Ms': 'Response time, p90 (ms)',
  'quality.interruptionsCaller': 'Caller interruptions',
  'quality.interruptionsAgent': 'Agent interruptions',
  'quality.deadAirLongestMs': 'Longest dead air (ms)',
  'quality.silencePct': 'Silence (% of call)',
  'quality.agentTalkPct': 'Agent talk (% of call)',
  'quality.turns': 'Turns',
};
export const OP_LABELS: Record<OutcomeOp, string> = {
  equals: 'is',
  contains: 'contains',
  gte: 'is at least',
  lte: 'is at most',
};
/** The ops that make sense per field (gte/lte compare numbers). */
export function opsFor(field: DraftField): OutcomeOp[] {
  if (field === 'duration' || field.startsWith('quality.')) return ['gte', 'lte', 'equals'];
  if (field === 'transferred') return ['equals'];
  if (field === 'summary' || field === 'transcript') return ['contains', 'equals'];
  if (field === 'variables') return ['equals', 'contains', 'gte', 'lte'];
  return ['equals', 'contains'];
}

const PALETTE = ['#0891b2', '#ea580c', '#db2777', '#4f46e5', '#65a30d', '#0d9488', '#9333ea', '#b45309'];
let keySeq = 0;
const nextKey = () => `o${++keySeq}`;

export function toDraft(outcomes: Outcome[]): DraftOutcome[] {
  return outcomes.map((o) => ({
    key: nextKey(),
    name: o.name,
    color: o.color,
    value: o.value === null || o.value === undefined ? '' : String(o.value),
    needsAttention: o.needsAttention,
    notify: o.notify,
    rules: o.rules.map((r) => {
      const variable = r.field.startsWith('variables.') ? r.field.slice('variables.'.length) : '';
      return {
        // A stored rule's field is a draft field once variables.* is folded
        field: (variable ? 'variables' : r.field) as DraftField,
        variable,
        op: r.op,
        value: String(r.value),
      };
    }),
  }));
}

export function newRule(): DraftRule {
  return { field: 'disposition_tag', variable: '', op: 'equals', value: '' };
}

export function newOutcome(existing: DraftOutcome[]): DraftOutcome {
  let n = existing.length + 1;
  const names = new Set(existing.map((o) => o.name.toLowerCase()));
  while (names.has(`outcome ${n}`)) n++;
  return {
    key: nextKey(),
    name: `Outcome ${n}`,
    color: PALETTE[existing.length % PALETTE.length],
    value: '',
    needsAttention: false,
    notify: false,
    rules: [newRule()],
  };
}

/** Moves one outcome up (-1) or down (+1): the first matching outcome wins, so order matters. */
export function move<T>(list: T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  if (to < 0 || to >= list.length) return list;
  const next = [...list];
  [next[index], next[to]] = [next[to], next[index]];
  return next;
}

function ruleOf(rule: DraftRule): OutcomeRule {
  const field = rule.field === 'variables' ? `variables.${rule.variable.trim()}` : rule.field;
  const text = rule.value.trim();
  let value: string | number | boolean = text;
  if (rule.field === 'transferred') value = text === 'true';
  else if (rule.field === 'duration' || rule.op === 'gte' || rule.op === 'lte')
    value = text === '' ? Number.NaN : Number(text);
  return { field, op: rule.op, value };
}

/** What is wrong with the draft, in words beside the inputs; empty when it can be saved. */
export function draftProblems(draft: DraftOutcome[]): Map<string, string> {
  const problems = new Map<string, string>();
  const seen = new Set<string>();
  draft.forEach((o) => {
    const name = o.name.trim().toLowerCase();
    if (!name) problems.set(`${o.key}.name`, 'Give the outcome a name');
    else if (name === OTHER_OUTCOME.toLowerCase())
      problems.set(`${o.key}.name`, `"${OTHER_OUTCOME}" is the name of calls no outcome matches`);
    else if (seen.has(name)) problems.set(`${o.key}.name`, 'Each outcome needs its own name');
    seen.add(name);
    if (o.value.trim() !== '' && !(Number(o.value) >= 0))
      problems.set(`${o.key}.value`, 'A value in dollars, like 120');
    if (o.rules.length === 0) problems.set(`${o.key}.rules`, 'Add at least one rule');
    o.rules.forEach((r, i) => {
      if (r.field === 'variables' && !/^[A-Za-z0-9_-]{1,64}$/.test(r.variable.trim()))
        problems.set(`${o.key}.rules.${i}`, 'Name the variable (letters, digits, - and _)');
      else if (
        (r.op === 'gte' || r.op === 'lte' || r.field === 'duration') &&
        !Number.isFinite(Number(r.value))
      )
        problems.set(`${o.key}.rules.${i}`, 'Give a number');
      else if (r.value.trim() === '' && r.field !== 'transferred')
        problems.set(`${o.key}.rules.${i}`, 'Give a value to compare with');
    });
  });
  return problems;
}

export function fromDraft(draft: DraftOutcome[]): Outcome[] {
  return draft.map((o) => ({
    name: o.name.trim(),
    color: o.color,
    value: o.value.trim() === '' ? null : Number(o.value),
    needsAttention: o.needsAttention,
    notify: o.notify,
    rules: o.rules.map(ruleOf),
  }));
}
