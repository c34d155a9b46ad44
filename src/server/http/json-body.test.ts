import { describe, expect, it } from 'vitest';
import { jsonDepth, MAX_JSON_DEPTH } from './json-body';

describe('jsonDepth', () => {
  it('counts nesting of objects and arrays', () => {
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth('{"a":[1,{"b":2}]}')).toBe(3);
    expect(jsonDepth('[[],[[]]]')).toBe(3);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDepth('{"a":"[[[{{{"}')).toBe(1);
    expect(jsonDepth('{"a":"say \\"[[[\\" twice"}')).toBe(1);
  });

  it('stops as soon as the bound is passed, however deep the body', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(jsonDepth(deep)).toBe(MAX_JSON_DEPTH + 1);
  });
});
