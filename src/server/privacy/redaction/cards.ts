/**
 * Payment cards: the numbers (written, spoken, in pieces, across separators, two in one breath),
 * told from other long numbers by the words before them, the schemes' prefixes and lengths and the
 * Luhn check; then the expiry date and security code said next to a card or named as such. All
 * three are the one `cards` category, labelled `[CARD]`, `[EXPIRY]` and `[CVC]`.
 */
import { namesAnotherKindOfNumber, nearestContext } from './context';
import { readDate } from './dates';
import { gluedToIdentifier, runSpan, type Scan, spanOfTokens } from './scan';
import { type NumberRun, readDigitItem } from './spoken-numbers';
import { FILLERS, isSpeakerLabel, type Token, wordsBefore } from './tokens';

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let k = 0; k < digits.length; k++) {
    let d = digits.charCodeAt(digits.length - 1 - k) - 48;
    if (k % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/**
 * Whether digits have a card scheme's prefix and one of its lengths (Visa, Mastercard, Amex,
 * Discover, JCB, Diners, UnionPay, Mir). Maestro's wide 5/6 ranges are left out: a tracking
 * number's middle would too often pass. Used where no word says "card" and nothing else would
 * find the number, so it is asked together with the Luhn check (isCardShaped).
 */
export function hasCardPrefix(d: string): boolean {
  const n = d.length;
  const p2 = Number(d.slice(0, 2));
  const p3 = Number(d.slice(0, 3));
  const p4 = Number(d.slice(0, 4));
  if (d[0] === '4') return n === 13 || n === 16 || n === 19;
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return n === 16;
  if (p2 === 34 || p2 === 37) return n === 15;
  if (p4 === 6011 || (p3 >= 644 && p3 <= 649) || p2 === 65 || p2 === 62) return n >= 16 && n <= 19;
  if ((p4 >= 3528 && p4 <= 3589) || (p4 >= 2200 && p4 <= 2204)) return n >= 16 && n <= 19;
  if ((p3 >= 300 && p3 <= 305) || p2 === 36 || p2 === 38 || p2 === 39) return n >= 14 && n <= 19;
  return false;
}

/** 13 to 19 digits with a card scheme's prefix and length, passing the Luhn check. */
export function isCardShaped(digits: string): boolean {
  return digits.length >= 13 && digits.length <= 19 && hasCardPrefix(digits) && luhnValid(digits);
}

/** Lists of years ("2019, 2020, 2021, 2022") make 16 digits too; no card reads as years. */
function allYears(groups: string[]): boolean {
  return groups.length >= 2 && groups.every((g) => /^(19|20)\d\d$/.test(g));
}

/** Token index of the end of `count` digits into the run (for splitting card | expiry | code). */
function tokenAfterDigits(
  scan: Scan,
  run: NumberRun,
  groupCount: number,
  /** Where to start reading and how many groups lie before it (a split in several cuts goes on). */
  from = run.first,
  groupsBefore = 0,
): { lastOfHead: number; firstOfTail: number } | null {
  // Re-read the run's tokens, counting groups the same way findRuns did, without corrections
  // (a split is only tried on runs without them).
  const digits = run.groups.slice(groupsBefore, groupCount).join('').length;
  let seen = 0;
  let j = from;
  while (j <= run.last) {
    const item = readDigitItem(scan.tokens, j);
    if (item) {
      seen += item.digits.length;
      j += item.used;
      if (seen === digits) {
        let k = j;
        while (k <= run.last && !readDigitItem(scan.tokens, k)) k++;
        return { lastOfHead: j - 1, firstOfTail: k };
      }
      if (seen > digits) return null;
    } else j++;
  }
  return null;
}

function isMonth2(g: string): boolean {
  const m = Number(g.slice(0, 2));
  return m >= 1 && m <= 12;
}

export function detectCards(scan: Scan): void {
  const { tokens } = scan;
  let lastCardEnd = -1;
  for (let r = 0; r < scan.runs.length; r++) {
    const run = scan.runs[r]!;
    if (run.plus) continue; // "+44 ...": a phone number
    if (gluedToIdentifier(tokens, run)) continue;
    const n = run.digits.length;
    const context = nearestContext(tokens, run, 8);
    if (
      context === 'other' ||
      (context === 'phone' && n <= 15 && wordsBefore(tokens, run.first, 8)[0] !== 'number')
    )
      continue;
    // the rest of a card said after a break ("... and then four two four two ...")
    if (n >= 4 && n < 13 && lastCardEnd >= 0 && continuesCard(tokens, lastCardEnd, run.first)) {
      scan.spans.push({ ...runSpan(scan, run, 'card', '[CARD]'), luhn: false });
      lastCardEnd = run.last;
      continue;
    }
    const before = scan.spans.length;
    const next = scan.runs[r + 1];
    if (n >= 13 && n <= 19) {
      if (allYears(run.groups)) continue;
      // A card said straight through with its expiry ("... 4242, oh four twenty-seven") splits off.
      if (!(n > 16 && !run.corrected && splitCardTail(scan, run)))
        scan.spans.push({
          ...runSpan(scan, run, 'card', '[CARD]'),
          luhn: luhnValid(run.digits),
          digits: run.digits,
        });
    } else if (n > 19) {
      if (allYears(run.groups)) continue; // "1995 1996 1997 1998 1999": no card and code either
      // digits taken back and re-said: someone reading out a card, whatever the count
      if (run.corrected) scan.spans.push({ ...runSpan(scan, run, 'card', '[CARD]'), luhn: false });
      else if (!splitCardTail(scan, run) && !splitRepeatedCards(scan, run) && context === 'card')
        scan.spans.push({ ...runSpan(scan, run, 'card', '[CARD]'), luhn: false });
    } else if (
      n >= 4 &&
      next &&
      !next.plus &&
      n + next.digits.length >= 13 &&
      n + next.digits.length <= 19 &&
      continuesCard(tokens, run.last, next.first) &&
      !allYears([...run.groups, ...next.groups])
    ) {
      // two halves joined by "and then": one card
      const digits = run.digits + next.digits;
      scan.spans.push({
        ...spanOfTokens(scan, run.first, next.last, 'card', '[CARD]'),
        luhn: luhnValid(digits),
        digits,
      });
      lastCardEnd = next.last;
      r++;
      continue;
    } else if (n >= 8 && context === 'card') {
      // a card read out in pieces, the rest said later: the piece said after "card" still goes
      scan.spans.push({ ...runSpan(scan, run, 'card', '[CARD]'), luhn: false });
    }
    if (scan.spans.length > before) lastCardEnd = run.last;
  }
}

/**
 * Each token index where each of a run's groups starts and ends, read once; null when the groups
 * do not map onto whole tokens (digits taken back, a "for" read as four).
 */
function groupTokens(scan: Scan, run: NumberRun): { first: number[]; last: number[] } | null {
  const first: number[] = [];
  const last: number[] = [];
  let g = 0;
  let inGroup = 0;
  for (let j = run.first; j <= run.last; ) {
    const item = readDigitItem(scan.tokens, j);
    if (!item) {
      j++;
      continue;
    }
    const group = run.groups[g];
    if (group === undefined) return null;
    if (inGroup === 0) first[g] = j;
    inGroup += item.digits.length;
    j += item.used;
    if (inGroup === group.length) {
      last[g] = j - 1;
      g++;
      inGroup = 0;
    } else if (inGroup > group.length) return null;
  }
  return g === run.groups.length ? { first, last } : null;
}

/**
 * A card inside a longer run that detectCards left whole: said straight after another number
 * ("zip 10001 4000 0566 5566 5556"), glued to an identifier ("V08 4000056655665556"), or followed
 * by one. Any groups in a row making 13-19 digits with a card's prefix, length and Luhn check are
 * a card, whatever precedes them; only a window that starts the run still obeys the word naming
 * the run ("order number …"), as detectCards does.
 */
export function detectCardsInside(scan: Scan): void {
  if (!scan.runs.some((run) => run.digits.length >= 13)) return;
  const cards = scan.spans.filter((s) => s.key === 'card');
  let p = 0;
  for (const run of scan.runs) {
    if (run.digits.length < 13 || run.corrected) continue;
    const start = scan.tokens[run.first]!.start;
    const end = scan.tokens[run.last]!.end;
    while (p < cards.length && cards[p]!.end <= start) p++;
    if (p < cards.length && cards[p]!.start < end) continue;
    const { groups } = run;
    let bounds: ReturnType<typeof groupTokens> | undefined;
    for (let i = 0; i < groups.length; ) {
      let best = -1;
      let bestDigits = '';
      let acc = '';
      for (let k = i; k < groups.length && acc.length + groups[k]!.length <= 19; k++) {
        acc += groups[k]!;
        if (isCardShaped(acc)) {
          best = k;
          bestDigits = acc;
        }
      }
      if (best < 0 || (i === 0 && (run.plus || nearestContext(scan.tokens, run, 8) === 'other'))) {
        i++;
        continue;
      }
      bounds ??= groupTokens(scan, run);
      if (!bounds) break;
      scan.spans.push({
        ...spanOfTokens(scan, bounds.first[i]!, bounds.last[best]!, 'card', '[CARD]'),
        luhn: true,
        digits: bestDigits,
      });
      i = best + 1;
    }
  }
}

// Written groups joined by a separator the runs do not read ("3530/1113/3330/0000",
// "5105_1051_0510_5100", "3782|822463|10005"): a slash between numbers is otherwise a date's.
// Bounded repeats without nesting, so linear. Such separators also join file names, batch ids
// and timestamps ("20241127_000123_4567"), so the digits must be card-shaped unless the caller
// said "card".
const SEPARATED_DIGITS_RE = /(?<!\d)\d{1,19}(?:[ \t]?[/_\\|][ \t]?\d{1,19}){2,18}/g;
const SEPARATOR_CHARS_RE = /[/_\\|]/;

export function detectSeparatedCards(scan: Scan): void {
  if (!SEPARATOR_CHARS_RE.test(scan.text)) return;
  for (const m of scan.text.matchAll(SEPARATED_DIGITS_RE)) {
    const groups = m[0].split(/\D+/);
    const digits = groups.join('');
    if (digits.length < 13 || digits.length > 19 || allYears(groups)) continue;
    const start = m.index ?? 0;
    // the first token of the match, for the words said before it
    let lo = 0;
    let hi = scan.tokens.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (scan.tokens[mid]!.start < start) lo = mid + 1;
      else hi = mid;
    }
    if (namesAnotherKindOfNumber(scan.tokens, lo)) continue;
    if (!isCardShaped(digits) && nearestContext(scan.tokens, { first: lo }, 8) !== 'card') continue;
    scan.spans.push({
      start,
      end: start + m[0].length,
      key: 'card',
      label: '[CARD]',
      luhn: luhnValid(digits),
      digits,
    });
  }
}

const IDENTIFIER_JOINERS = new Set(['_', '/', '\\', '|', '#', '@', '=', '+', '*', ':']);
const CARD_CONTINUATION = new Set(['and', 'then', 'the', 'rest', 'is', 'last', 'next', 'bit', 'part']);

/** Whether only joining words lie between a card's last token and this run. */
function continuesCard(tokens: Token[], cardLast: number, runFirst: number): boolean {
  if (runFirst - cardLast > 12) return false;
  let words = 0;
  for (let k = cardLast + 1; k < runFirst; k++) {
    const t = tokens[k]!;
    // "20241127_000123": a mark that joins an identifier's parts is no pause between two halves
    if (t.kind === 'punct' && IDENTIFIER_JOINERS.has(t.text)) return false;
    if (t.kind === 'punct' || FILLERS.has(t.lower)) continue;
    if (!CARD_CONTINUATION.has(t.lower) || ++words > 3) return false;
  }
  return true;
}

/**
 * A card said twice in one breath ("4242 4242 4242 4242, 4242 4242 4242 4242"), or two cards: the
 * run cuts at group boundaries into pieces of 16 (or 15) digits, each a card. A tracking number's
 * groups do not cut so (its last piece is short), so it stays.
 */
function splitRepeatedCards(scan: Scan, run: NumberRun): boolean {
  if (!readsWithoutCorrections(scan, run)) return false; // taken-back digits: groups do not map to tokens
  const cuts: number[] = [];
  let acc = 0;
  for (let g = 0; g < run.groups.length; g++) {
    acc += run.groups[g]!.length;
    if (
      acc === 16 ||
      (acc === 15 && run.groups[g + 1] !== undefined && acc + run.groups[g + 1]!.length > 16)
    ) {
      cuts.push(g + 1);
      acc = 0;
    } else if (acc > 16) return false;
  }
  if (acc !== 0 || cuts.length < 2) return false;
  let firstTok = run.first;
  let groupsBefore = 0;
  for (const cut of cuts) {
    const at = tokenAfterDigits(scan, run, cut, firstTok, groupsBefore);
    if (!at) return false;
    const digits = run.groups.slice(groupsBefore, cut).join('');
    scan.spans.push({
      ...spanOfTokens(scan, firstTok, at.lastOfHead, 'card', '[CARD]'),
      luhn: luhnValid(digits),
    });
    firstTok = at.firstOfTail;
    groupsBefore = cut;
  }
  return true;
}

/** Whether the run's tokens hold exactly its digits (nothing was taken back by a correction). */
function readsWithoutCorrections(scan: Scan, run: NumberRun): boolean {
  let digits = 0;
  for (let j = run.first; j <= run.last; ) {
    const item = readDigitItem(scan.tokens, j);
    if (item) {
      digits += item.digits.length;
      j += item.used;
    } else j++;
  }
  return digits === run.digits.length;
}

/** A run of card + expiry (+ code) said as one: split at group boundaries when the tail fits. */
function splitCardTail(scan: Scan, run: NumberRun): boolean {
  let acc = 0;
  for (let g = 0; g < run.groups.length - 1; g++) {
    acc += run.groups[g]!.length;
    if (acc !== 16 && acc !== 15) continue;
    const tail = run.groups.slice(g + 1);
    const tailDigits = tail.join('');
    let expiryLen = 0;
    if (tail[0] && (tail[0].length === 4 || tail[0].length === 6) && isMonth2(tail[0]))
      expiryLen = tail[0].length;
    else if (
      tail.length >= 2 &&
      tail[0]!.length <= 2 &&
      tail[1]!.length <= 4 &&
      isMonth2(tail[0]!.padStart(2, '0'))
    )
      expiryLen = tail[0]!.length + tail[1]!.length;
    const codeLen = tailDigits.length - expiryLen;
    if (expiryLen === 0 && !(codeLen === 3 || codeLen === 4)) continue;
    if (expiryLen > 0 && !(codeLen === 0 || codeLen === 3 || codeLen === 4)) continue;
    const cut = tokenAfterDigits(scan, run, g + 1);
    if (!cut) continue;
    const head = run.digits.slice(0, acc);
    scan.spans.push({
      ...spanOfTokens(scan, run.first, cut.lastOfHead, 'card', '[CARD]'),
      luhn: luhnValid(head),
    });
    if (cut.firstOfTail <= run.last) {
      if (expiryLen > 0 && codeLen > 0) {
        const groupsInExpiry = tail[0]!.length === expiryLen ? 1 : 2;
        const cut2 = tokenAfterDigits(scan, run, g + 1 + groupsInExpiry);
        if (cut2) {
          scan.spans.push(spanOfTokens(scan, cut.firstOfTail, cut2.lastOfHead, 'expiry', '[EXPIRY]'));
          if (cut2.firstOfTail <= run.last)
            scan.spans.push(spanOfTokens(scan, cut2.firstOfTail, run.last, 'cvc', '[CVC]'));
        } else scan.spans.push(spanOfTokens(scan, cut.firstOfTail, run.last, 'expiry', '[EXPIRY]'));
      } else if (expiryLen > 0) {
        scan.spans.push(spanOfTokens(scan, cut.firstOfTail, run.last, 'expiry', '[EXPIRY]'));
      } else {
        scan.spans.push(spanOfTokens(scan, cut.firstOfTail, run.last, 'cvc', '[CVC]'));
      }
    }
    return true;
  }
  return false;
}

const EXPIRY_WORDS = new Set([
  'expiry',
  'expiration',
  'expires',
  'expire',
  'expiring',
  'exp',
  'expiry’s',
  "expiry's",
]);

export function detectExpiryAndCode(scan: Scan): void {
  const { tokens } = scan;
  const cards = scan.spans.filter((s) => s.key === 'card').sort((a, b) => a.start - b.start);
  /** Whether a card was said within 250 characters of this token (binary search: many cards stay linear). */
  const nearCard = (index: number) => {
    const pos = tokens[index]!.start;
    let lo = 0;
    let hi = cards.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cards[mid]!.start < pos) lo = mid + 1;
      else hi = mid;
    }
    const after = cards[lo];
    const before = cards[lo - 1];
    return (
      (after !== undefined && after.start - pos < 250) || (before !== undefined && pos - before.end < 250)
    );
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    // Expiry: after an expiry word, or "valid until/through", or "good thru", next to a card.
    let after = -1;
    if (EXPIRY_WORDS.has(t.lower)) after = i + 1;
    else if (
      (t.lower === 'valid' || t.lower === 'good') &&
      /^(until|thru|through|till)$/.test(tokens[i + 1]?.lower ?? '')
    )
      after = i + 2;
    if (after >= 0 && nearCard(i)) {
      const date = readDate(tokens, after, 4);
      if (date) scan.spans.push(spanOfTokens(scan, date.first, date.last, 'expiry', '[EXPIRY]'));
    }
    // Security code: named ("CVV", "security code", "code on the back", "three digits on the back").
    // "the code is 314" right after a card: its code too
    const named = codePhraseEnd(tokens, i);
    const codeEnd = named < 0 && t.lower === 'code' && nearCard(i) ? i : named;
    if (codeEnd >= 0) {
      const run = nextRun(scan, codeEnd + 1, 6);
      if (run && (run.digits.length === 3 || run.digits.length === 4))
        scan.spans.push(runSpan(scan, run, 'cvc', '[CVC]'));
    }
  }
  // "... and 123 on the back": a code named after it is said, next to a card
  for (const run of scan.runs) {
    if (run.digits.length !== 3 && run.digits.length !== 4) continue;
    const k = run.last + 1;
    if (tokens[k]?.lower !== 'on' || !CARD_SIDES.has(tokens[k + 2]?.lower ?? '')) continue;
    if (tokens[k + 1]?.lower === 'the' && nearCard(run.first))
      scan.spans.push(runSpan(scan, run, 'cvc', '[CVC]'));
  }
  // A card followed straight away by "04/27" or by a short code: its expiry / code without a word.
  if (cards.length === 0) return;
  const tokenEndingAt = new Map(tokens.map((t, index) => [t.end, index]));
  for (const card of cards) {
    const lastTok = tokenEndingAt.get(card.end) ?? -1;
    if (lastTok < 0) continue;
    let k = lastTok + 1;
    while (
      tokens[k] &&
      (tokens[k]!.text === ',' ||
        tokens[k]!.text === '.' ||
        FILLERS.has(tokens[k]!.lower) ||
        tokens[k]!.lower === 'and')
    )
      k++;
    const a = tokens[k];
    const slash = tokens[k + 1];
    const b = tokens[k + 2];
    if (
      a?.kind === 'num' &&
      slash?.text === '/' &&
      b?.kind === 'num' &&
      isMonth2(a.text.padStart(2, '0')) &&
      a.text.length <= 2
    ) {
      scan.spans.push(spanOfTokens(scan, k, k + 2, 'expiry', '[EXPIRY]'));
      let m = k + 3;
      while (
        tokens[m] &&
        (tokens[m]!.text === ',' || tokens[m]!.lower === 'and' || FILLERS.has(tokens[m]!.lower))
      )
        m++;
      const code = scan.runByFirst.get(m);
      if (code && (code.digits.length === 3 || code.digits.length === 4) && code.last - code.first < 6)
        scan.spans.push(runSpan(scan, code, 'cvc', '[CVC]'));
    }
  }
}

/** Where a named security code phrase starting at i ends, or -1. */
// Sets rather than a regex or an array per call: codePhraseEnd runs for every token of every text.
const CODE_NAMES = new Set(['cvv', 'cvc', 'cv2', 'cvv2', 'csc', 'cvn']);
const CODE_WORDS = new Set(['code', 'digits', 'numbers', 'number']);
const CARD_SIDES = new Set(['back', 'reverse', 'front']);

function codePhraseEnd(tokens: Token[], i: number): number {
  const w = tokens[i]!.lower;
  if (CODE_NAMES.has(w)) return i;
  if (w === 'security') {
    const next = tokens[i + 1]?.lower;
    return next === 'code' || next === 'number' ? i + 1 : -1;
  }
  if (w === 'c') {
    const third = tokens[i + 2]?.lower;
    return tokens[i + 1]?.lower === 'v' && (third === 'v' || third === 'c') ? i + 2 : -1;
  }
  // "code on the back", "digits on the back", "number on the back"
  if (CODE_WORDS.has(w)) {
    let k = i + 1;
    if (tokens[k]?.lower === 'on' || tokens[k]?.lower === 'at') k++;
    if (tokens[k]?.lower === 'the') k++;
    if (CARD_SIDES.has(tokens[k]?.lower ?? '')) return k;
  }
  return -1;
}

/** The first run starting within `window` tokens from i, with only small words between. */
function nextRun(scan: Scan, i: number, window: number): NumberRun | null {
  const SMALL = new Set([
    'is',
    'it',
    "it's",
    'its',
    'are',
    'was',
    'the',
    'my',
    'number',
    'code',
    'um',
    'uh',
    'er',
    'erm',
    'that',
    "that's",
    'just',
  ]);
  for (let k = i; k < i + window && k < scan.tokens.length; k++) {
    const run = scan.runByFirst.get(k);
    if (run) return run;
    const t = scan.tokens[k]!;
    if (isSpeakerLabel(scan.tokens, k)) k++;
    else if (!(t.kind === 'punct' || SMALL.has(t.lower))) return null;
  }
  return null;
}
