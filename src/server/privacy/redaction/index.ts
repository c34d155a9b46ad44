/**
 * The redaction engine's public face: takes text and a client's chosen categories, answers the text
 * with each piece of personal data replaced by a label, and how many of each it found. Pure: no
 * I/O, no database, no clock; the ingestion paths that call it (webhook, confirmation, sync,
 * replay) and the re-redaction run are wired elsewhere. It never throws on odd text.
 *
 * Labels (one scheme, what the transcript view shows as chips):
 * - `[CARD]` a payment card number; `[EXPIRY]` and `[CVC]` its expiry date and security code when
 *   said next to it (or, for the code, named as one). They are kept apart from `[CARD]` rather
 *   than folded in because the text stays readable ("expiry [EXPIRY]") and the counts tell the
 *   client what a caller read out; all three belong to the one `cards` category.
 * - National IDs: `[SSN]` (US Social Security number) and `[NI]` (UK National Insurance number),
 *   the two the issue names, are on whenever `nationalIds` is; every other country's number is
 *   `[NATIONAL_ID]` (found.nationalId), so the transcript view needs one more chip, not one per
 *   country. A country is one entry of `NATIONAL_ID_FORMATS`, looked for when the client's
 *   `nationalIdCountries` names it; Canada's SIN is the first.
 * - `[EMAIL]`, `[PHONE]` (never the call's own from/to numbers: `keepNumbers`), `[DOB]`, `[ADDRESS]`.
 *
 * Why no library (checked against the npm packages the issue names, installed and tried on
 * spoken examples, November 2026): `@openredaction/openredaction` has hundreds of written-form
 * patterns but found no spoken card ("four two four two ...") nor spelled e-mail, and labelled an
 * order number and every word of a spoken phone number as Instagram users; `redact-pii` (regexes
 * for written forms, Google's DLP client as a dependency) missed the same spoken card and e-mail,
 * took "john" for a name and a 13-digit order number for a phone; `words-to-numbers` knows
 * neither "oh" nor "double", turns "dot" into 0 and depends on babel-runtime 6; `card-validator`
 * validates typed card fields (its Luhn check is five lines, in cards.ts). Spoken numbers are the hard
 * part and none of them does it, so this module reads the words itself. libphonenumber-js (already a dependency)
 * tells a phone number from other digit runs and normalises the call's own numbers.
 *
 * How: the text is cut into tokens once; a linear pass reads every "number run" (digits written or
 * spoken, with fillers, pauses and corrections inside); each category looks at the runs and the
 * words around them. Every step is a bounded scan over tokens and the few regexes have no nested
 * quantifiers, so time grows linearly with the text (no catastrophic backtracking).
 *
 * The parts, one file each with its tests beside it: tokens.ts and spoken-numbers.ts (the text
 * read once: tokens, and every run of digits written or said), context.ts (the words before a
 * number that say what it is), one file per category (cards.ts with expiry and code,
 * identity-numbers.ts, email.ts, phone.ts, dates.ts for dates of birth, addresses.ts),
 * engine.ts composing them over one scan (scan.ts), json-values.ts for payloads. Other modules
 * import from here only.
 */
export { isCardShaped, luhnValid } from './cards';
export {
  crossTurnFixes,
  type RedactionMemo,
  redactText,
  redactTextOnce,
  type TurnFix,
} from './engine';
export { NATIONAL_ID_FORMATS } from './identity-numbers';
export { redactValue } from './json-values';
export { emptyFound, type RedactionFound, type RedactionOptions, type RedactionResult } from './types';
