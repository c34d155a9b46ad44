import { describe, expect, it } from 'vitest';
import { excerptAround, subjectMatcher } from './erasure-match';

describe('erasure subject matching', () => {
  const email = subjectMatcher({ kind: 'email', value: 'x@example.com' });

  it('finds a whole address in any case, in prose and in JSON', () => {
    for (const text of [
      'x@example.com',
      'write to X@Example.COM please',
      'my address is x@example.com.',
      '(x@example.com)',
      '<x@example.com>',
      "it is 'x@example.com'",
      'mailto:x@example.com',
      '{"email":"x@example.com"}',
      '[{"role":"user","text":"line one\\nx@example.com"}]',
      'x@example.com, y@example.com',
    ])
      expect(email(text), text).toBe(true);
  });

  it('does not find it inside another address', () => {
    for (const text of [
      'max@example.com',
      'alex@example.com.au',
      'rex@example.community',
      'x@example.com-mail.net',
      'x@example.com_old',
      "o'x@example.com",
      'a.x@example.com',
      'a+x@example.com',
      'a-x@example.com',
      'éx@example.com',
      'x@example.coma',
      'xx@example.com',
      'x@example.co',
    ])
      expect(email(text), text).toBe(false);
  });

  it('takes the address as written, never as a pattern', () => {
    const dotted = subjectMatcher({ kind: 'email', value: 'a.b+c@d-e.io' });
    expect(dotted('from a.b+c@d-e.io today')).toBe(true);
    expect(dotted('from aXb+c@d-e.io today')).toBe(false);
  });

  it('finds a phone number’s digits only as a whole run', () => {
    const phone = subjectMatcher({ kind: 'phone', value: '+12125550100' });
    expect(phone('{"from":"+12125550100"}')).toBe(true);
    expect(phone('call 12125550100 now')).toBe(true);
    expect(phone('call 112125550100 now')).toBe(false);
    expect(phone('call 121255501001 now')).toBe(false);
  });

  it('cuts a one-line excerpt around the address', () => {
    const long = `${'a '.repeat(100)}reach me at x@example.com ${'b '.repeat(100)}`;
    const excerpt = excerptAround(long, { kind: 'email', value: 'x@example.com' }, 20);
    expect(excerpt).toMatch(/^….*x@example\.com.*…$/);
    expect(excerpt.length).toBeLessThan(60);
  });
});
