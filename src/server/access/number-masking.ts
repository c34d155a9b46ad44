/**
 * Masked callers' numbers, decided and applied in one place. `masksNumbersFor` says
 * whether a client's user sees masked numbers: without `unmask_numbers`, or with the client's
 * privacy setting "hide numbers until shown" on. The call routes, the live stream and the export
 * ask it once per request (connection, download) and then mask every call they answer with
 * `maskCall` / `maskLiveCall` / `numberMasker`, at the boundary, so no read path masks on its own.
 *
 * A number is masked wherever it appears in what is answered about its call, not only in
 * `fromNumber` / `toNumber`: a caller says their number in the transcript, the provider puts it in
 * the variables or the summary. Any string of the call holding the number (with or without its
 * country code, spaced or punctuated any way, or its last seven digits alone) gets the mask.
 * Admins and the demo have no client user: never masked. This module reads no table.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import type { Call } from '../../contract/calls';
import type { LiveCallEvent } from '../../contract/live';
import { MASK_CHAR, maskPhoneNumber } from '../../contract/phone-mask';
import type { ClientRow } from '../db/schema';
import { hasNumberWord, normaliseDigits, SPELLED_NUMBER, spelledDigits } from './number-text';
import type { SessionUserRow } from './permissions';
import { hasPermission } from './permissions';

/** The mask of hidden digits, as maskPhoneNumber writes it. */
const MASKED_RUN = MASK_CHAR.repeat(3);

/** Whether this user of this client is answered masked numbers. No user (admin, demo): no. */
export function masksNumbersFor(
  client: Pick<ClientRow, 'hide_numbers_until_shown'>,
  user: Pick<SessionUserRow, 'role' | 'permissions'> | null | undefined,
): boolean {
  if (!user) return false;
  return !hasPermission(user, 'unmask_numbers') || client.hide_numbers_until_shown === 1;
}

/**
 * Separators people and providers write inside a number (after `normaliseDigits`: Unicode dashes
 * and spaces are "-" and " " by then), a slash, an underscore or a comma between groups included.
 */
const SEPARATOR_CHARS = '\\s().\\-/_,';
const SEPARATORS = `[${SEPARATOR_CHARS}]*`;
/** Shorter digit runs say too little to be a caller's number (and would hit durations, prices). */
const MIN_DIGITS = 7;
/** Fewer hidden digits than this are left where they stand alone: "12" is in too many sentences. */
const MIN_HIDDEN_DIGITS = 3;

/** The ways a number can be written inside text, as one pattern; null when it is too short to find. */
function patternOf(number: string): RegExp | null {
  const parsed = parsePhoneNumberFromString(number);
  const national = parsed?.nationalNumber ?? number.replace(/\D/g, '');
  if (national.length < MIN_DIGITS) return null;
  const spaced = (digits: string) => digits.split('').join(SEPARATORS);
  // An opening bracket before the area code goes with it: "(212) 867-0100" leaves no stray "(".
  const code = parsed ? `(?:\\+?${spaced(parsed.countryCallingCode)}${SEPARATORS})?\\(?` : '\\+?';
  // The number without its area code ("867-0100") is most of what the mask hides: found too.
  const local = national.length >= 10 ? `|${spaced(national.slice(-7))}` : '';
  return new RegExp(`${code}${spaced(national)}${local}`, 'g');
}

/**
 * The digits the mask hides ("867" of "+1 212 ••• 0100"): said on their own, apart from the rest
 * of the number (a caller giving it in parts, a transcript splitting it over two lines), they are
 * what someone reading the mask does not have. Null when too few to look for alone.
 */
function hiddenDigitsOf(number: string): string | null {
  const digits = number.replace(/\D/g, '');
  const masked = maskPhoneNumber(number);
  const [shownBefore = '', shownAfter = ''] = masked.split(MASKED_RUN);
  const parsed = parsePhoneNumberFromString(number);
  const national = parsed?.nationalNumber ?? digits;
  // What the mask shows before the hidden run: the country code and the first group, or nothing.
  const firstGroup = shownBefore.trim().split(' ').slice(1).join('').replace(/\D/g, '');
  const after = shownAfter.replace(/\D/g, '').length;
  const hidden = national.slice(firstGroup.length, national.length - after);
  return hidden.length >= MIN_HIDDEN_DIGITS ? hidden : null;
}

/** Any number written in international form ("+12135550127"): whoever's it is, it is a phone number. */
const INTERNATIONAL = /\+\d{7,15}(?!\d)/g;
/** Digits with separators between them: one group as written ("867", "86-7", "8 6 7"). */
const DIGIT_RUN = new RegExp(`\\d(?:${SEPARATORS}\\d)*`, 'g');
/**
 * Stands in for a masked passage until the last pass, so later passes do not read its digits: its
 * index as one private-use character (no digit) between two others no one types: U+F8FF.
 */
const HELD = /\uf8ff([\ue000-\uf8fe])\uf8ff/g;
const HELD_FIRST = 0xe000;
const HELD_LAST = 0xf8fe;

/**
 * Replaces these numbers, wherever they appear in a text, with their masked form; and any other
 * number in international form (a provider's variables name the caller's other numbers too). The
 * text is read with its digits normalised (`normaliseDigits`: any script's digits, Unicode dashes
 * and spaces, full-width separators), spelled in words ("eight six seven") too; and the digits the
 * mask hides are masked wherever they stand, so a number said in parts gives nothing away. A text
 * with nothing to mask is answered as it was; one with something masked, normalised.
 */
export function numberMasker(numbers: readonly string[]): (text: string) => string {
  const rules = [...new Set(numbers)].flatMap((number) => {
    const rule = ruleOf(number);
    return rule ? [rule] : [];
  });
  return (text) => {
    // Most of a call's strings (names, outcomes, most sentences) hold no digit: nothing to find.
    if (!MAY_HOLD_NUMBER.test(text)) return text;
    const plain = normaliseDigits(text);
    const held: string[] = [];
    const hold = (masked: string) =>
      held.length > HELD_LAST - HELD_FIRST
        ? masked
        : `\uf8ff${String.fromCharCode(HELD_FIRST + held.push(masked) - 1)}\uf8ff`;
    const maskedFor = (digits: string): string | null => {
      for (const rule of rules)
        if (digits.includes(rule.national) || digits.includes(rule.local)) return rule.masked;
      return rules.some((rule) => isHiddenPart(rule, digits)) ? MASKED_RUN : null;
    };
    let out = plain.replace(SPELLED_NUMBER, (run) => {
      if (!hasNumberWord(run)) return run;
      const masked = maskedFor(spelledDigits(run));
      return masked ? hold(masked) : run;
    });
    for (const { pattern, masked } of rules) out = out.replace(pattern, () => hold(masked));
    out = out.replace(DIGIT_RUN, (run) => {
      const digits = run.replace(/\D/g, '');
      return rules.some((rule) => isHiddenPart(rule, digits)) ? hold(MASKED_RUN) : run;
    });
    out = out
      .replace(INTERNATIONAL, (number) => maskPhoneNumber(number))
      .replace(HELD, (_, i: string) => held[i.charCodeAt(0) - HELD_FIRST] ?? '');
    return out === plain ? text : out;
  };
}

/**
 * Whether these digits, written on their own, are a part of the number holding digits the mask
 * hides ("867", "2128670"). Another number that merely contains them ("+1 213 555 0127" for a
 * number hiding "555") is not.
 */
function isHiddenPart(rule: MaskRule, digits: string): boolean {
  return !!rule.hidden && digits.includes(rule.hidden) && rule.digits.includes(digits);
}

/** A digit, or a word that may start a spelled number: anything else holds no number. */
const MAY_HOLD_NUMBER =
  /\p{Nd}|\b(?:zero|oh|o|nought|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|double|triple)\b/iu;

interface MaskRule {
  pattern: RegExp;
  masked: string;
  /** The national number's digits, and its last seven: a spelled run holding either is the number. */
  national: string;
  local: string;
  /** All its digits, the country code's too. */
  digits: string;
  hidden: string | null;
}

/**
 * Each number's pattern, built once: parsing a number and compiling its pattern cost more than
 * masking a page of calls with it, and a client's own numbers (the agent's line) and its callers
 * repeat from row to row. Bounded: the oldest entry goes first.
 */
const rules = new Map<string, MaskRule | null>();
const RULES_KEPT = 5_000;

function ruleOf(number: string): MaskRule | null {
  const known = rules.get(number);
  if (known !== undefined) return known;
  const pattern = patternOf(number);
  const national = parsePhoneNumberFromString(number)?.nationalNumber ?? number.replace(/\D/g, '');
  const rule = pattern
    ? {
        pattern,
        masked: maskPhoneNumber(number),
        national,
        local: national.slice(-MIN_DIGITS),
        digits: number.replace(/\D/g, ''),
        hidden: hiddenDigitsOf(number),
      }
    : null;
  if (rules.size >= RULES_KEPT) {
    const oldest = rules.keys().next();
    if (!oldest.done) rules.delete(oldest.value);
  }
  rules.set(number, rule);
  return rule;
}

/** A value that is a phone number and nothing else, however written ("(213) 555-0127", "213/555/0127"). */
const WHOLLY_A_NUMBER = new RegExp(`^\\+?[\\d${SEPARATOR_CHARS}]+$`);

/**
 * A structured value (variables, analysis, and their keys): a number on its own is masked whoever's
 * it is, when it has the digits of a whole phone number (ten, or seven after a +), so a date
 * ("2026-11-27") or a short code stays as it is.
 */
function maskValue(text: string, mask: (text: string) => string): string {
  const plain = normaliseDigits(text);
  const digits = plain.replace(/\D/g, '').length;
  const whole = WHOLLY_A_NUMBER.test(plain) && digits >= (plain.trim().startsWith('+') ? MIN_DIGITS : 10);
  return whole ? maskPhoneNumber(plain) : mask(text);
}

/** Fields that are ours (ids, links, times), never a caller's words: left as they are. */
const OWN_FIELDS = new Set(['id', 'providerCallId', 'createdAt', 'recordingUrl', 'handledAt']);

/** Every string (and number written as digits) inside a value, masked. */
function maskDeep(value: unknown, mask: (text: string) => string): unknown {
  if (typeof value === 'string') return maskValue(value, mask);
  if (typeof value === 'number') {
    const masked = mask(String(value));
    return masked === String(value) ? value : masked;
  }
  if (Array.isArray(value)) return value.map((item) => maskDeep(item, mask));
  if (value && typeof value === 'object') {
    // Keys too: a provider's variables may be named by a number ("caller_2128670100").
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      let shown = maskValue(key, mask);
      // Two keys masked alike both stay.
      for (let n = 2; shown in out; n++) shown = `${maskValue(key, mask)} (${n})`;
      out[shown] = maskDeep(item, mask);
    }
    return out;
  }
  return value;
}

/**
 * A call (log row, detail, attention row) with its caller's numbers masked everywhere in it. A
 * search snippet whose number would be split across highlighted parts is answered as one masked,
 * unhighlighted passage.
 */
export function maskCall<T extends Call>(call: T): T {
  const mask = numberMasker([call.fromNumber, call.toNumber]);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(call))
    out[key] = OWN_FIELDS.has(key) || key === 'snippet' ? value : maskDeep(value, mask);
  out.fromNumber = maskPhoneNumber(call.fromNumber);
  out.toNumber = maskPhoneNumber(call.toNumber);
  if (call.snippet) {
    const whole = call.snippet.map((part) => part.text).join('');
    const masked = mask(whole);
    out.snippet = masked === whole ? call.snippet : [{ text: masked, match: false }];
  }
  // The same keys and shapes as the call, strings in place of strings: still a T.
  return out as T;
}

/** A live `call` event's JSON with its numbers masked (other kinds carry no number). */
export function maskLiveCall(payload: string): string {
  // JSON.parse returns any; the payload is a live `call` event we serialised
  const event = JSON.parse(payload) as LiveCallEvent;
  return JSON.stringify({
    ...event,
    fromNumber: maskPhoneNumber(event.fromNumber),
    toNumber: maskPhoneNumber(event.toNumber),
  } satisfies LiveCallEvent);
}
