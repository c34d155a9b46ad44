/**
 * JSON values (stored provider payloads, variables, analysis): every string redacted as text,
 * keys and shape kept; a card sent as a number, and whatever a key naming a secret holds
 * ("cvv", "cardNumber", "ssn"), labelled too; transcript lines in an array joined where a speaker
 * read a card across two of them.
 */
import { hasCardPrefix, isCardShaped } from './cards';
import { crossTurnFixes, type RedactionMemo, redactTextOnce } from './engine';
import { emptyFound, type FoundKey, type RedactionFound, type RedactionOptions } from './types';

const EPOCH_MS_RE = /^1\d{12}$/;
/** An id as a payload field on its own (a call's, a customer's): never something a caller said. */
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A value that is only labels already (a payload redacted before): nothing left to find. */
const ONLY_LABELS_RE = /^(?:\s*\[[A-Z_]+\]\s*)+$/;

const CARD_KEY_REST = new Set(['number', 'num', 'no', 'nr', 'credit', 'debit', 'full', 'payment', 'digits']);
const CODE_KEY_WORDS = new Set(['cvv', 'cvc', 'cvv2', 'cvc2', 'csc', 'cvn']);
const EXPIRY_KEY_WORDS = new Set(['exp', 'expiry', 'expiration', 'expires']);
const SECRET_KEY_HINT_RE = /card|pan|iban|cv|csc|ssn|social|insurance|nino|national|sin|security|cc/i;
const secretKeyCache = new Map<string, Secret | null>();

interface Secret {
  key: FoundKey;
  label: string;
}

/**
 * What a JSON key names, when it names a secret: a card (`card`, `cardNumber`, `pan`, `iban`),
 * its code (`cvv`, `securityCode`) or expiry (`cardExpiry`), a national ID (`ssn`, `nino`,
 * `nationalId`, `sin`). Its value is then redacted whatever it looks like ("739" is no card by its
 * digits): the key says what it is. Words are read from camelCase, snake_case and kebab-case.
 */
function secretOfKey(key: string): Secret | null {
  if (!SECRET_KEY_HINT_RE.test(key)) return null;
  const cached = secretKeyCache.get(key);
  if (cached !== undefined) return cached;
  const words = key
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z\d]+/)
    .filter(Boolean);
  const has = (w: string) => words.includes(w);
  let secret: Secret | null = null;
  const cardWord = has('card') || has('cc') || has('creditcard') || has('debitcard');
  if (words.some((w) => CODE_KEY_WORDS.has(w)) || (has('security') && has('code')))
    secret = { key: 'cvc', label: '[CVC]' };
  else if (cardWord && words.some((w) => EXPIRY_KEY_WORDS.has(w)))
    secret = { key: 'expiry', label: '[EXPIRY]' };
  else if (
    has('pan') ||
    has('iban') ||
    has('cardnumber') ||
    has('ccnumber') ||
    (cardWord &&
      words.every((w) => w === 'card' || w === 'cc' || CARD_KEY_REST.has(w)) &&
      (has('card') || words.length > 1))
  )
    secret = { key: 'card', label: '[CARD]' };
  else if (has('ssn') || (has('social') && has('security'))) secret = { key: 'ssn', label: '[SSN]' };
  else if (has('nino') || (has('national') && has('insurance'))) secret = { key: 'ni', label: '[NI]' };
  else if (has('sin') || (has('national') && has('id')) || (has('social') && has('insurance')))
    secret = { key: 'nationalId', label: '[NATIONAL_ID]' };
  if (secretKeyCache.size > 10_000) secretKeyCache.clear(); // keys come from payloads: bounded
  secretKeyCache.set(key, secret);
  return secret;
}

function secretOn(secret: Secret | null, options: RedactionOptions): Secret | null {
  if (!secret) return null;
  const category =
    secret.key === 'card' || secret.key === 'cvc' || secret.key === 'expiry' ? 'cards' : 'nationalIds';
  return options[category] ? secret : null;
}

/**
 * Whether a JSON number is a card sent as a number (`"pan": 5555555555554444`). Past 2^53 the
 * digits sent are already lost to the parser's rounding, so there the scheme's prefix and length
 * decide alone.
 */
function isCardNumberValue(n: number): boolean {
  if (!Number.isInteger(n) || n < 1e12 || n >= 1e19) return false;
  if (Number.isSafeInteger(n)) return isCardShaped(String(n));
  return hasCardPrefix(BigInt(n).toString());
}

/** Fields a transcript's line keeps its words and its speaker in, across the providers' payloads. */
const TURN_TEXT_FIELDS = ['text', 'message', 'content'];
const TURN_SPEAKER_FIELDS = ['role', 'user', 'speaker_label', 'speaker'];

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Redacts every string inside a JSON value (stored provider payloads, variables, analysis),
 * keeping keys and the shape. Besides the texts: a number that is a card (by its scheme and the
 * Luhn check) becomes `"[CARD]"`; a value under a key naming a secret (secretOfKey) becomes that
 * secret's label, whatever its type; an array of transcript lines (`{role, text}`,
 * `{role, message}`, `{user, text}`) has the cards carried across a speaker's lines found
 * (crossTurnFixes). Booleans and null pass unchanged. `found` is added into.
 */
export function redactValue(
  value: unknown,
  options: RedactionOptions,
  found: RedactionFound = emptyFound(),
  memo?: RedactionMemo,
): { value: unknown; found: RedactionFound } {
  const add = (more: RedactionFound) => {
    // Object.keys is string[]; a RedactionFound's keys are its categories
    for (const key of Object.keys(found) as (keyof RedactionFound)[]) found[key] += more[key];
  };
  const walk = (v: unknown, secret: Secret | null): unknown => {
    if (typeof v === 'string') {
      if (secret && v.trim() !== '' && !ONLY_LABELS_RE.test(v)) {
        found[secret.key]++;
        return secret.label;
      }
      // A provider's epoch-milliseconds timestamp written as a string ("1764239999000", 2001 to
      // 2033) is 13 digits too; no card number is sent as a payload field on its own like that.
      if (EPOCH_MS_RE.test(v) || UUID_RE.test(v)) return v;
      const r = redactTextOnce(v, options, memo);
      add(r.found);
      return r.text;
    }
    if (typeof v === 'number') {
      if (secret) {
        found[secret.key]++;
        return secret.label;
      }
      if (options.cards && isCardNumberValue(v)) {
        found.card++;
        found.cardLuhnValid++;
        return '[CARD]';
      }
      return v;
    }
    if (Array.isArray(v)) {
      const out = v.map((item) => walk(item, secret));
      if (!secret) carryAcrossTurns(v, out);
      return out;
    }
    if (isRecord(v)) {
      const out: Record<string, unknown> = {};
      for (const [k, inner] of Object.entries(v))
        out[k] = walk(inner, secretOn(secretOfKey(k), options) ?? secret);
      return out;
    }
    return v;
  };
  const carryAcrossTurns = (lines: unknown[], out: unknown[]) => {
    if (!options.cards || lines.length < 2) return;
    const texts: string[] = [];
    const speakers: (string | null)[] = [];
    const fields: (string | undefined)[] = [];
    for (const line of lines) {
      const field = isRecord(line) ? TURN_TEXT_FIELDS.find((f) => typeof line[f] === 'string') : undefined;
      const speaker =
        field && isRecord(line)
          ? TURN_SPEAKER_FIELDS.map((f) => line[f]).find(
              (s) => typeof s === 'string' || typeof s === 'number',
            )
          : undefined;
      fields.push(field);
      // `field` was found above as one whose value is a string
      texts.push(field && isRecord(line) ? (line[field] as string) : '');
      speakers.push(speaker === undefined ? null : String(speaker));
    }
    for (const [k, fix] of crossTurnFixes(texts, speakers, options, memo)) {
      const line = out[k];
      const field = fields[k];
      if (!isRecord(line) || !field || secretOfKey(field)) continue;
      line[field] = fix.text;
      add(fix.delta);
    }
  };
  return { value: walk(value, null), found };
}
