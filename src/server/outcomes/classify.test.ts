import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_OUTCOMES, OUTCOME_MESSAGES, type Outcome, Outcomes } from '../../contract/outcomes';
import { type CallFacts, classify, classifySteps, ruleMatches } from './classify';

const facts = (over: Partial<CallFacts> = {}): CallFacts => ({
  status: 'completed',
  durationSeconds: 120,
  answeredBy: 'human',
  dispositionTag: null,
  summary: null,
  transcript: null,
  callerTranscript: null,
  variables: null,
  quality: null,
  ...over,
});

const booked: Outcome = {
  name: 'Booked appointment',
  color: '#16a34a',
  value: 120,
  needsAttention: false,
  notify: true,
  rules: [{ field: 'disposition_tag', op: 'equals', value: 'appointment_booked' }],
};

describe('classify', () => {
  it('gives the first outcome whose rules all match, else Other', () => {
    const outcomes = [booked, ...DEFAULT_OUTCOMES];
    expect(classify(facts({ dispositionTag: 'APPOINTMENT_BOOKED ' }), outcomes)).toBe('Booked appointment');
    expect(classify(facts(), outcomes)).toBe('Reached a person');
    expect(classify(facts({ answeredBy: 'voicemail' }), outcomes)).toBe('Voicemail');
    expect(classify(facts({ status: 'transferred' }), outcomes)).toBe('Transferred');
    expect(classify(facts({ status: 'failed', answeredBy: null }), outcomes)).toBe('Failed');
    expect(classify(facts({ status: 'failed', answeredBy: 'no-answer' }), outcomes)).toBe('No answer');
    expect(classify(facts({ answeredBy: null, status: 'unknown' }), outcomes)).toBe('Other');
    expect(classify(facts(), [])).toBe('Other');
  });

  it('reads durations, phrases and variables', () => {
    expect(ruleMatches(facts({ durationSeconds: 10 }), { field: 'duration', op: 'lte', value: 15 })).toBe(
      true,
    );
    expect(ruleMatches(facts({ durationSeconds: 16 }), { field: 'duration', op: 'lte', value: '15' })).toBe(
      false,
    );
    expect(ruleMatches(facts({ durationSeconds: 60 }), { field: 'duration', op: 'gte', value: 60 })).toBe(
      true,
    );
    const said = facts({ transcript: 'Could you CALL ME BACK tomorrow?', summary: 'Asked for a call-back.' });
    expect(ruleMatches(said, { field: 'transcript', op: 'contains', value: 'call me back' })).toBe(true);
    expect(ruleMatches(said, { field: 'summary', op: 'contains', value: 'refund' })).toBe(false);
    const vars = facts({
      variables: { appointment_time: 'Friday 9am', input: { rooms: 3 }, confirmed: true },
    });
    expect(ruleMatches(vars, { field: 'variables.appointment_time', op: 'contains', value: 'friday' })).toBe(
      true,
    );
    expect(ruleMatches(vars, { field: 'variables.input.rooms', op: 'gte', value: 2 })).toBe(true);
    expect(ruleMatches(vars, { field: 'variables.confirmed', op: 'equals', value: true })).toBe(true);
    expect(ruleMatches(vars, { field: 'variables.missing', op: 'equals', value: '' })).toBe(false);
    expect(ruleMatches(facts(), { field: 'transferred', op: 'equals', value: false })).toBe(true);
  });
});

describe('outcome lists', () => {
  const valid = { ...booked, rules: [...booked.rules] };
  const issues = (value: unknown) => {
    const r = Outcomes.safeParse(value);
    return r.success ? [] : r.error.issues.map((i) => i.message);
  };

  it('accepts the defaults and a custom list', () => {
    expect(issues(DEFAULT_OUTCOMES)).toEqual([]);
    expect(issues([valid])).toEqual([]);
  });

  it('refuses unknown fields and ops, words for numbers, duplicate and reserved names', () => {
    expect(issues([{ ...valid, rules: [{ field: 'mood', op: 'equals', value: 'happy' }] }])).toEqual([
      OUTCOME_MESSAGES.unknownField,
    ]);
    expect(issues([{ ...valid, rules: [{ field: 'status', op: 'like', value: 'x' }] }])).toEqual([
      OUTCOME_MESSAGES.unknownOp,
    ]);
    expect(issues([{ ...valid, rules: [{ field: 'duration', op: 'gte', value: 'long' }] }])).toEqual([
      OUTCOME_MESSAGES.numericOp,
    ]);
    expect(issues([valid, { ...valid, name: 'booked APPOINTMENT' }])).toEqual([
      OUTCOME_MESSAGES.duplicateName,
    ]);
    expect(issues([{ ...valid, name: 'other' }])).toEqual([OUTCOME_MESSAGES.reservedName]);
    expect(issues([{ ...valid, rules: [] }])).toEqual(['Add at least one rule']);
    expect(issues([{ ...valid, color: 'green' }])).toEqual(['Use a colour like #16a34a']);
  });

  it("folds a call's text once for all its rules, and counts each rule by the text it reads", () => {
    const transcript = 'The caller asked about the Invoice. '.repeat(1_000);
    const many: Outcome[] = Array.from({ length: 20 }, (_, o) => ({
      ...booked,
      name: `O${o}`,
      rules: [
        { field: 'transcript', op: 'contains', value: 'INVOICE' },
        { field: 'transcript', op: 'contains', value: `absent ${o}` },
      ],
    }));
    const lower = vi.spyOn(String.prototype, 'toLowerCase');
    const steps = classifySteps(facts({ transcript }), many);
    const costs: number[] = [];
    let step = steps.next();
    while (!step.done) {
      costs.push(step.value);
      step = steps.next();
    }
    const foldedLong = lower.mock.contexts.filter((s) => String(s).length === transcript.length).length;
    lower.mockRestore();
    expect(step.value).toBe('Other');
    expect(costs).toEqual(Array(40).fill(transcript.length));
    expect(foldedLong).toBe(1);
  });
});
