import { describe, expect, it } from 'vitest';
import { parseSearch, SEARCH_SYNTAX_MESSAGES, toFts5, toTsquery } from './search-query';

const compiled = (text: string) => {
  const parsed = parseSearch(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return { fts: toFts5(parsed.query), ts: toTsquery(parsed.query) };
};

describe('search language', () => {
  it('compiles words, phrases, prefixes and OR for both databases', () => {
    expect(compiled('Refund policy')).toEqual({ fts: '"refund" AND "policy"', ts: "'refund' & 'policy'" });
    expect(compiled('"refund policy"')).toEqual({ fts: '"refund policy"', ts: "('refund' <-> 'policy')" });
    expect(compiled('refu*')).toEqual({ fts: '"refu"*', ts: "'refu':*" });
    expect(compiled('refund OR return later')).toEqual({
      fts: '("refund" OR "return") AND "later"',
      ts: "('refund' | 'return') & 'later'",
    });
  });

  it('reads index syntax and punctuation as plain words', () => {
    expect(compiled("NEAR(a b) o'brien:* x&y")).toEqual({
      fts: '"near a" AND "b" AND "o brien"* AND "x y"',
      ts: "('near' <-> 'a') & 'b' & ('o' <-> 'brien':*) & ('x' <-> 'y')",
    });
    expect(compiled('!!! ---')).toEqual({ fts: '', ts: '' });
  });

  it('says what is wrong with a query it cannot read', () => {
    const message = (text: string) => {
      const parsed = parseSearch(text);
      return parsed.ok ? null : parsed.message;
    };
    expect(message('"open')).toBe(SEARCH_SYNTAX_MESSAGES.unclosedQuote);
    expect(message('""')).toBe(SEARCH_SYNTAX_MESSAGES.emptyPhrase);
    expect(message('a*b')).toBe(SEARCH_SYNTAX_MESSAGES.misplacedStar);
    expect(message('*')).toBe(SEARCH_SYNTAX_MESSAGES.misplacedStar);
    expect(message('r*')).toBe(SEARCH_SYNTAX_MESSAGES.shortPrefix);
    expect(message('re*')).toBe(SEARCH_SYNTAX_MESSAGES.shortPrefix);
    expect(message('"refund po"*')).toBe(SEARCH_SYNTAX_MESSAGES.shortPrefix);
    expect(message('th* OR yo* OR an* OR wh* OR it*')).toBe(SEARCH_SYNTAX_MESSAGES.shortPrefix);
    expect(message('the* OR you* OR and* OR wha* OR its*')).toBe(SEARCH_SYNTAX_MESSAGES.tooManyPrefixes);
    expect(message('the* OR you* OR and* OR wha*')).toBeNull();
    expect(message('OR refund')).toBe(SEARCH_SYNTAX_MESSAGES.danglingOr);
    expect(message('a OR OR b')).toBe(SEARCH_SYNTAX_MESSAGES.danglingOr);
    expect(message(Array.from({ length: 17 }, (_, i) => `w${i}`).join(' '))).toBe(
      SEARCH_SYNTAX_MESSAGES.tooManyTerms,
    );
  });
});
