/**
 * Number runs: read through fillers and corrections, linear on a pathological input, and number
 * words read from tables that hold no object properties.
 */
import { describe, expect, it } from 'vitest';
import { ALL_ON } from '../../../../tests/fixtures/redaction-options';
import { redactText } from './engine';
import { findRuns } from './spoken-numbers';
import { tokenize } from './tokens';

describe('redactText', () => {
  it('survives a pathological input (one 100,000-digit string) and finds nothing in it', () => {
    expect(redactText('4'.repeat(100_000), ALL_ON).text).toHaveLength(100_000);
  });

  it('reads the names of JavaScript object properties as words, never as numbers', () => {
    // Each threw or counted as a digit while the word tables were plain objects.
    for (const word of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf']) {
      const text = `double ${word} twenty ${word} four hundred ${word} the ${word} of may ${word} dot ${word}`;
      const result = redactText(text, ALL_ON);
      const plainWord = redactText(text.replaceAll(word, 'builder'), ALL_ON);
      expect(result.found, word).toEqual(plainWord.found);
      expect(result.text.replaceAll(word, 'builder'), word).toBe(plainWord.text);
    }
  });

  it('reads one run through fillers and a correction, and spoken groups as said', () => {
    const corrected = 'four two four, sorry, four two four two, um, 4242 and then 42';
    expect(findRuns(tokenize(corrected), corrected).map((r) => [r.digits, r.groups, r.corrected])).toEqual([
      ['42424242', ['4242', '4242'], true],
      ['42', ['42'], false],
    ]);
    const spoken = 'double four, oh seven nine three hundred';
    expect(findRuns(tokenize(spoken), spoken).map((r) => r.groups)).toEqual([['44', '079300']]);
  });
});
