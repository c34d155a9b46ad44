import { describe, expect, it } from 'vitest';
import { DEFAULT_OUTCOMES, Outcomes } from '../../../contract/outcomes';
import { draftProblems, fromDraft, move, newOutcome, toDraft } from './outcomes-draft';

describe('outcomes draft', () => {
  it('round-trips the saved list, variables and typed values included', () => {
    const list = [
      ...DEFAULT_OUTCOMES,
      {
        name: 'Big team',
        color: '#0891b2',
        value: 40,
        needsAttention: false,
        notify: true,
        rules: [
          { field: 'variables.team_size', op: 'gte' as const, value: 10 },
          { field: 'duration', op: 'gte' as const, value: 60 },
        ],
      },
    ];
    const back = fromDraft(toDraft(list));
    expect(back).toEqual(list);
    expect(Outcomes.safeParse(back).success).toBe(true);
  });

  it('names what blocks saving: empty or repeated names, "Other", bad numbers, unnamed variables', () => {
    const draft = toDraft(DEFAULT_OUTCOMES.slice(0, 2));
    draft[1].name = ' reached a PERSON ';
    draft[0].value = 'lots';
    draft[0].rules[0] = { field: 'variables', variable: '', op: 'equals', value: 'x' };
    draft[0].rules[1] = { field: 'duration', variable: '', op: 'gte', value: 'long' };
    const other = newOutcome(draft);
    other.name = 'Other';
    const problems = draftProblems([...draft, other]);
    expect(Object.fromEntries(problems)).toEqual({
      [`${draft[0].key}.value`]: 'A value in dollars, like 120',
      [`${draft[0].key}.rules.0`]: 'Name the variable (letters, digits, - and _)',
      [`${draft[0].key}.rules.1`]: 'Give a number',
      [`${draft[1].key}.name`]: 'Each outcome needs its own name',
      [`${other.key}.name`]: '"Other" is the name of calls no outcome matches',
      // A new outcome's first rule waits for its value.
      [`${other.key}.rules.0`]: 'Give a value to compare with',
    });
    expect(draftProblems(toDraft(DEFAULT_OUTCOMES)).size).toBe(0);
  });

  it('moves an outcome up or down, never past the ends', () => {
    expect(move(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(move(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(move(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });
});
