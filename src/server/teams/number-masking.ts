/**
 * Masked callers' numbers (issue 36), decided and applied in one place. `masksNumbersFor` says
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
import { maskPhoneNumber } from '../../contract/phone-mask';
import { hasPermission } from '../auth/permissions';
import type { SessionUserRow } from '../auth/sessions';
import type { ClientRow } from '../db/schema';

/** Whether this user of this client is answered masked numbers. No user (admin, demo): no. */
export function masksNumbersFor(
  client: Pick<ClientRow, 'hide_numbers_until_shown'>,
  user: Pick<SessionUserRow, 'role' | 'permissions'> | null | undefined,
): boolean {
  if (!user) return false;
  return !hasPermission(user, 'unmask_numbers') || client.hide_numbers_until_shown === 1;
}

/** Separators people and providers write inside a number. */
const SEPARATORS = '[\\s().\\-\\u00a0]*';
/** Shorter digit runs say too little to be a caller's number (and would hit durations, prices). */
const MIN_DIGITS = 7;

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

/** Any number written in international form ("+12135550127"): whoever's it is, it is a phone number. */
const INTERNATIONAL = /\+\d{7,15}(?!\d)/g;

/**
 * Replaces these numbers, wherever they appear in a text, with their masked form; and any other
 * number in international form (a provider's variables name the caller's other numbers too).
 */
export function numberMasker(numbers: readonly string[]): (text: string) => string {
  const rules = [...new Set(numbers)].flatMap((number) => {
    const rule = ruleOf(number);
    return rule ? [rule] : [];
  });
  return (text) =>
    // Most of a call's strings (names, outcomes, most sentences) hold no digit: nothing to find.
    HAS_DIGIT.test(text)
      ? rules
          .reduce((out, { pattern, masked }) => out.replace(pattern, masked), text)
          .replace(INTERNATIONAL, (number) => maskPhoneNumber(number))
      : text;
}

const HAS_DIGIT = /\d/;

interface MaskRule {
  pattern: RegExp;
  masked: string;
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
  const rule = pattern ? { pattern, masked: maskPhoneNumber(number) } : null;
  if (rules.size >= RULES_KEPT) {
    const oldest = rules.keys().next();
    if (!oldest.done) rules.delete(oldest.value);
  }
  rules.set(number, rule);
  return rule;
}

/** A value that is a phone number and nothing else, however written ("(213) 555-0127"). */
const WHOLLY_A_NUMBER = /^\+?[\d\s().\-\u00a0]+$/;

/**
 * A structured value (variables, analysis): a number on its own is masked whoever's it is, when it
 * has the digits of a whole phone number (ten, or seven after a +), so a date ("2026-11-27") or
 * a short code stays as it is.
 */
function maskValue(text: string, mask: (text: string) => string): string {
  const digits = text.replace(/\D/g, '').length;
  const whole = WHOLLY_A_NUMBER.test(text) && digits >= (text.trim().startsWith('+') ? MIN_DIGITS : 10);
  return whole ? maskPhoneNumber(text) : mask(text);
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
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskDeep(item, mask)]));
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
  const event = JSON.parse(payload) as LiveCallEvent;
  return JSON.stringify({
    ...event,
    fromNumber: maskPhoneNumber(event.fromNumber),
    toNumber: maskPhoneNumber(event.toNumber),
  } satisfies LiveCallEvent);
}
