/**
 * Digits as people and providers write them, brought to one form so that a number can be found in
 * text however it was typed or transcribed: any script's decimal digits (full-width "２１２",
 * Arabic-Indic, mathematical), Unicode dashes and spaces, full-width separators, invisible format
 * characters, and digits spelled in words ("two one two, eight six seven, oh one hundred").
 * Used by the masker of callers' numbers (access/number-masking.ts) and the redaction engine, which
 * read number words from the same tables. Pure: no I/O, no state but a cache of digit values.
 */

/** A decimal digit of any script, a dash, a space, or a full-width separator: what `normaliseDigits` rewrites. */
const REWRITTEN = /[\p{Nd}\p{Pd}\p{Zs}\p{Cf}\u2212\uff08\uff09\uff0b\uff0c\uff0e\uff0f\uff3f]/gu;

/** Full-width forms of the separators written inside numbers, as ASCII. */
const FULL_WIDTH: Record<string, string> = {
  '\uff08': '(',
  '\uff09': ')',
  '\uff0b': '+',
  '\uff0c': ',',
  '\uff0e': '.',
  '\uff0f': '/',
  '\uff3f': '_',
};

const ND = /\p{Nd}/u;
const digitValues = new Map<number, string>();

/**
 * The ASCII digit of a decimal digit of any script. Unicode encodes each script's digits as a run
 * of ten, zero first, and runs of several sets (the mathematical digits) are whole multiples of
 * ten: the value is the distance from the run's start, modulo ten.
 */
function asciiDigit(codePoint: number): string {
  const known = digitValues.get(codePoint);
  if (known !== undefined) return known;
  let start = codePoint;
  while (start > 0 && ND.test(String.fromCodePoint(start - 1))) start--;
  const digit = String((codePoint - start) % 10);
  digitValues.set(codePoint, digit);
  return digit;
}

/**
 * The text with every decimal digit in ASCII, every dash (and the minus sign) as "-", every space
 * as " ", full-width separators in ASCII and invisible format characters (zero-width spaces, joiners)
 * removed. Nothing that could end a JSON string ('"', '\') is ever written, so a JSON text stays one.
 */
export function normaliseDigits(text: string): string {
  // Plain ASCII (most text) has nothing to rewrite.
  if (!/[^\p{ASCII}]/u.test(text)) return text;
  return text.replace(REWRITTEN, (c) => {
    if (c >= '0' && c <= '9') return c;
    if (FULL_WIDTH[c]) return FULL_WIDTH[c];
    if (ND.test(c)) return asciiDigit(c.codePointAt(0) ?? 0);
    if (/\p{Cf}/u.test(c)) return '';
    return /\p{Zs}/u.test(c) ? ' ' : '-';
  });
}

/**
 * A table looked up by a caller's word. Without a prototype: on a plain object "constructor" or
 * "toString" would be found (Object.prototype's), and "double constructor" threw.
 */
export function wordTable<T>(entries: Record<string, T>): Readonly<Record<string, T | undefined>> {
  // Object.create returns any; the bare object is filled with `entries` at once
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}

export const UNITS = wordTable({
  zero: '0',
  oh: '0',
  o: '0',
  nought: '0',
  naught: '0',
  nil: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
});
export const TEENS = wordTable({
  ten: '10',
  eleven: '11',
  twelve: '12',
  thirteen: '13',
  fourteen: '14',
  fifteen: '15',
  sixteen: '16',
  seventeen: '17',
  eighteen: '18',
  nineteen: '19',
});
export const TENS = wordTable({
  twenty: '2',
  thirty: '3',
  forty: '4',
  fourty: '4',
  fifty: '5',
  sixty: '6',
  seventy: '7',
  eighty: '8',
  ninety: '9',
});
export const REPEATS = wordTable({ double: 2, triple: 3 });
const POWERS = wordTable({ hundred: '00', thousand: '000' });

/** Longest first, so "seventeen" is not read as "seven" and a stray "een". */
const NUMBER_WORDS = [
  ...Object.keys(TEENS),
  ...Object.keys(TENS),
  ...Object.keys(UNITS),
  ...Object.keys(POWERS),
]
  .sort((a, b) => b.length - a.length)
  .join('|');
const TOKEN = `(?:(?:double|triple)[\\s-]+)?(?:${NUMBER_WORDS}|\\d+)`;
const BETWEEN = '[\\s,.\\-/_]+(?:and\\s+)?';

/**
 * Two or more digits and number words in a row ("eight six seven", "212 eight six seven", "oh one
 * hundred"), as they are spoken or transcribed. `spelledDigits` reads one back as digits.
 */
export const SPELLED_NUMBER = new RegExp(`\\b${TOKEN}\\b(?:${BETWEEN}${TOKEN}\\b)+`, 'gi');

/** Whether a run found by SPELLED_NUMBER holds a number word at all (else the digits say it). */
export function hasNumberWord(run: string): boolean {
  return /[a-z]/i.test(run);
}

/** The digits a run of digits and number words says: "double oh seven" is "007", "eighty six" "86". */
export function spelledDigits(run: string): string {
  const tokens = run.toLowerCase().match(/[a-z]+|\d+/g) ?? [];
  let out = '';
  let repeat = 1;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === 'and') continue;
    if (REPEATS[token]) {
      repeat = REPEATS[token];
      continue;
    }
    let digits = '';
    if (/^\d+$/.test(token)) digits = token;
    else if (UNITS[token]) digits = UNITS[token];
    else if (TEENS[token]) digits = TEENS[token];
    else if (POWERS[token]) digits = POWERS[token];
    else if (TENS[token]) {
      const next = UNITS[tokens[i + 1] ?? ''];
      // "eighty six" is 86; "eighty" alone, or before "oh", is 80.
      if (next && next !== '0') {
        digits = TENS[token] + next;
        i++;
      } else digits = `${TENS[token]}0`;
    }
    out += digits.repeat(repeat);
    repeat = 1;
  }
  return out;
}
