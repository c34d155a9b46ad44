/**
 * Number runs: every stretch of a text holding digits, written ("4242 4242") or spoken ("four two,
 * double four, oh"), with the fillers, pauses, corrections ("sorry, four two four two") and
 * restarts people put inside, read in one linear pass over the tokens. Each category looks at
 * these runs and the words around them; none reads digits by itself. The number words come from
 * ../number-text.ts, shared with the masker of callers' numbers.
 */
import { REPEATS, TEENS, TENS, UNITS, wordTable } from '../../access/number-text';
import { FILLERS, isTurnLabel, type Token } from './tokens';

/** Transcribers hear "four" as "for" and "two" as "to": a digit only between two spoken digits. */
const WEAK_UNITS = wordTable({ for: '4', to: '2', too: '2' });
/** Said between groups of a number being dictated ("four two four two space four two ..."). */
const SPOKEN_SEPARATORS = new Set(['space', 'dash', 'hyphen']);

/** Punctuation that may sit inside a number as said or transcribed. */
const RUN_PUNCT = new Set([',', '.', '-', '–', '—', '…', '(', ')']);
/** Words that take back the group just said ("four two four, sorry, four two four two"). */
const CORRECTION_PHRASES: string[][] = [
  ['sorry'],
  ['no'],
  ['wait'],
  ['oops'],
  ['actually'],
  ['i', 'mean'],
  ['i', 'meant'],
  ['my', 'mistake'],
  ['hang', 'on'],
  ['hold', 'on'],
  ['correction'],
];
/** Words that take back the whole number said so far. */
const RESTART_PHRASES: string[][] = [
  ['let', 'me', 'start', 'again'],
  ['let', 'me', 'start', 'over'],
  ['let', 'me', 'try', 'again'],
  ['start', 'again'],
  ['start', 'over'],
  ['from', 'the', 'top'],
];

export interface NumberRun {
  /** First and last token (inclusive) holding digits. */
  first: number;
  last: number;
  digits: string;
  /** Digit groups as said: split at pauses, punctuation and between written numbers. */
  groups: string[];
  /** Written "+" or said "plus" just before: an international phone number. */
  plus: boolean;
  /** Digits were taken back inside it: its groups no longer map one to one onto its tokens. */
  corrected: boolean;
  /**
   * Character ranges inside it that are not the caller's digits but the transcript's own: the
   * line break and speaker label between two lines of the same speaker ("User: number 4000 0566
   * \nUser: 5566 5556"). A finding over the run keeps them, labelling the digits on each side.
   */
  keeps?: [number, number][];
}

function matchPhrase(tokens: Token[], i: number, phrases: string[][]): number {
  for (const phrase of phrases) {
    let ok = true;
    for (let k = 0; k < phrase.length; k++) {
      if (tokens[i + k]?.lower !== phrase[k]) {
        ok = false;
        break;
      }
    }
    if (ok) return phrase.length;
  }
  return 0;
}

/** Reads one digit-bearing item at i: its digits and how many tokens it took, or null. */
export function readDigitItem(
  tokens: Token[],
  i: number,
): { digits: string; used: number; spoken: boolean } | null {
  const t = tokens[i];
  if (!t) return null;
  if (t.kind === 'num') {
    if (!/^\d+$/.test(t.text)) return null; // an ordinal ("5th") is a date, not a digit
    return { digits: t.text, used: 1, spoken: false };
  }
  if (t.kind !== 'word') return null;
  const w = t.lower;
  const unit = UNITS[w];
  if (unit !== undefined) {
    const next = tokens[i + 1];
    if (next?.lower === 'hundred') return readHundred(tokens, i + 2, unit, 2);
    if (next?.lower === 'thousand') return readThousand(tokens, i + 2, unit);
    return { digits: unit, used: 1, spoken: true };
  }
  const teen = TEENS[w];
  if (teen !== undefined) {
    if (tokens[i + 1]?.lower === 'hundred') return readHundred(tokens, i + 2, teen, 2);
    return { digits: teen, used: 1, spoken: true };
  }
  const tens = TENS[w];
  if (tens !== undefined) {
    // "twenty-seven", "twenty seven": one two-digit number
    let j = i + 1;
    if (tokens[j]?.text === '-' && tokens[j]!.start === t.end) j++;
    const u = tokens[j] ? UNITS[tokens[j]!.lower] : undefined;
    if (u !== undefined && u !== '0' && tokens[j]!.lower !== 'o')
      return { digits: tens + u, used: j - i + 1, spoken: true };
    return { digits: `${tens}0`, used: 1, spoken: true };
  }
  const times = REPEATS[w];
  if (times !== undefined) {
    const next = readDigitItem(tokens, i + 1);
    if (next && next.digits.length === 1)
      return { digits: next.digits.repeat(times), used: 1 + next.used, spoken: true };
    return null;
  }
  return null;
}

/**
 * "four thousand", "four thousand two hundred forty-two" (a transcriber's way of writing 4242),
 * "two thousand and nineteen".
 */
function readThousand(tokens: Token[], j: number, lead: string) {
  let k = j;
  if (tokens[k]?.lower === 'and') k++;
  const t = tokens[k];
  const rest = t?.kind === 'word' && !REPEATS[t.lower] ? readDigitItem(tokens, k) : null;
  if (
    rest &&
    rest.digits.length <= 3 &&
    (rest.digits.length === 3) === (tokens[k + 1]?.lower === 'hundred')
  ) {
    return { digits: lead + rest.digits.padStart(3, '0'), used: 2 + (k - j) + rest.used, spoken: true };
  }
  return { digits: `${lead}000`, used: 2, spoken: true };
}

/** "four hundred", "four hundred twenty-seven", "one hundred and five". */
function readHundred(tokens: Token[], j: number, lead: string, usedSoFar: number) {
  let k = j;
  if (tokens[k]?.lower === 'and') k++;
  const rest = readDigitItem(tokens, k);
  if (rest && rest.digits.length <= 2 && tokens[k]!.kind === 'word' && !REPEATS[tokens[k]!.lower]) {
    return {
      digits: lead + rest.digits.padStart(2, '0'),
      used: usedSoFar + (k - j) + rest.used,
      spoken: true,
    };
  }
  return { digits: `${lead}00`, used: usedSoFar, spoken: true };
}

function isSpokenDigitAt(tokens: Token[], i: number): boolean {
  const t = tokens[i];
  return t !== undefined && t.kind === 'word' && UNITS[t.lower] !== undefined;
}

/** Every number run of the text, in order, each starting at a digit and ending at one. */
export function findRuns(tokens: Token[], text: string): NumberRun[] {
  const runs: NumberRun[] = [];
  // Who speaks at each token, worked out once and only when a run meets a speaker's label.
  let speakers: (string | null)[] | null = null;
  const speakerAt = (k: number): string | null => {
    if (!speakers) {
      speakers = new Array<string | null>(tokens.length);
      let current: string | null = null;
      for (let m = 0; m < tokens.length; m++) {
        if (isTurnLabel(text, tokens, m)) current = tokens[m]!.lower;
        speakers[m] = current;
      }
    }
    return speakers[k] ?? null;
  };
  let i = 0;
  while (i < tokens.length) {
    const item = readDigitItem(tokens, i);
    if (!item) {
      i++;
      continue;
    }
    const first = i;
    let last = i + item.used - 1;
    const groups: string[] = [item.digits];
    let groupOpen = item.spoken; // spoken digits keep adding to one group until a pause
    let lastWasDigit = true;
    let j = i + item.used;
    let lastValid = j;
    // a take-back counts only if digits follow it ("4242 4242 4242 4242, no wait, that's my old
    // one" keeps all sixteen): until then the groups as they were are kept here
    let beforeTakeBack: string[] | null = null;
    let corrected = false;
    const keeps: [number, number][] = [];
    let keepFrom: number | null = null;
    // the year of a written date ("04/27") stands alone
    const dateTail = tokens[first]!.kind === 'num' && tokens[first - 1]?.text === '/';
    for (;;) {
      if (dateTail) break;
      const t = tokens[j];
      if (!t) break;
      if (t.kind === 'punct' && RUN_PUNCT.has(t.text)) {
        groupOpen = false;
        j++;
        continue;
      }
      if (t.kind === 'word' && (FILLERS.has(t.lower) || SPOKEN_SEPARATORS.has(t.lower))) {
        groupOpen = false;
        j++;
        continue;
      }
      // The same speaker's next line ("User: number 4000 0566" / "User: 5566 5556"): one number
      // said in two breaths, which the transcriber cut into two lines.
      if (
        t.kind === 'word' &&
        tokens[j + 1]?.text === ':' &&
        isTurnLabel(text, tokens, j) &&
        speakerAt(first) === t.lower
      ) {
        keepFrom ??= tokens[last]!.end;
        groupOpen = false;
        j += 2;
        continue;
      }
      const restart = t.kind === 'word' ? matchPhrase(tokens, j, RESTART_PHRASES) : 0;
      if (restart) {
        beforeTakeBack ??= [...groups];
        groups.length = 0;
        groupOpen = false;
        lastWasDigit = false;
        j += restart;
        continue;
      }
      const correction = t.kind === 'word' ? matchPhrase(tokens, j, CORRECTION_PHRASES) : 0;
      if (correction) {
        // only a correction when the caller is mid-number: digits must follow (checked below)
        if (lastWasDigit) {
          beforeTakeBack ??= [...groups];
          groups.pop();
        }
        groupOpen = false;
        lastWasDigit = false;
        j += correction;
        continue;
      }
      const weak = t.kind === 'word' ? WEAK_UNITS[t.lower] : undefined;
      if (weak && lastWasDigit && isSpokenDigitAt(tokens, j - 1) && isSpokenDigitAt(tokens, j + 1)) {
        groups[groups.length - 1] += weak;
        j++;
        last = j - 1;
        lastValid = j;
        continue;
      }
      const next = readDigitItem(tokens, j);
      if (!next) break;
      if (t.kind === 'num' && tokens[j + 1]?.text === '/' && tokens[j + 2]?.kind === 'num') break; // "04/27": a date

      if (beforeTakeBack) {
        beforeTakeBack = null;
        corrected = true;
      }
      if (keepFrom !== null) {
        keeps.push([keepFrom, t.start]);
        keepFrom = null;
      }
      if (groupOpen && next.spoken && groups.length > 0) groups[groups.length - 1] += next.digits;
      else groups.push(next.digits);
      groupOpen = next.spoken;
      lastWasDigit = true;
      j += next.used;
      last = j - 1;
      lastValid = j;
    }
    if (beforeTakeBack) groups.splice(0, groups.length, ...beforeTakeBack);
    const digits = groups.join('');
    const before = tokens[first - 1];
    const plus = before?.text === '+' || before?.lower === 'plus';
    if (digits.length > 0)
      runs.push({
        first,
        last,
        digits,
        groups: groups.filter((g) => g.length > 0),
        plus,
        corrected,
        ...(keeps.length > 0 ? { keeps } : {}),
      });
    i = Math.max(lastValid, first + 1);
  }
  return runs;
}
