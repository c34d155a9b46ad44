/**
 * The labels redaction on arrival leaves in a call's texts (`[CARD]`, `[EMAIL]`, …), found
 * in a transcript line, a summary or a search snippet so the views can show them as chips. Pure;
 * the chip itself is `redacted-text.tsx`.
 */
import { REDACTION_LABEL_RE, type REDACTION_LABELS } from '../../../contract/privacy';

export type RedactionLabel = (typeof REDACTION_LABELS)[number];

export type RedactedPart = { kind: 'text'; text: string } | { kind: 'label'; label: RedactionLabel };

/** What a chip says to a screen reader (and in its tooltip): what was there, and that it went. */
export const REDACTION_LABEL_NAMES: Record<RedactionLabel, string> = {
  CARD: 'card number removed',
  EXPIRY: 'card expiry date removed',
  CVC: 'card security code removed',
  SSN: 'social security number removed',
  NI: 'national insurance number removed',
  NATIONAL_ID: 'national ID number removed',
  EMAIL: 'e-mail address removed',
  PHONE: 'phone number removed',
  DOB: 'date of birth removed',
  ADDRESS: 'street address removed',
};

/** What the chip shows: short, as the label says it. */
export const REDACTION_LABEL_WORDS: Record<RedactionLabel, string> = {
  CARD: 'card',
  EXPIRY: 'expiry',
  CVC: 'security code',
  SSN: 'SSN',
  NI: 'NI number',
  NATIONAL_ID: 'national ID',
  EMAIL: 'e-mail',
  PHONE: 'phone',
  DOB: 'date of birth',
  ADDRESS: 'address',
};

// The contract's expression is global (stateful with exec); splitting needs no state, so a copy without the flag.
const LABEL = new RegExp(REDACTION_LABEL_RE.source);

/**
 * The text cut at each label: text and label parts in order, empty text between two labels left
 * out. Brackets around anything else (`[laughs]`, `[card]` in lower case) stay text.
 */
export function splitRedactions(text: string): RedactedPart[] {
  if (!text.includes('[')) return text ? [{ kind: 'text', text }] : [];
  // split with a capturing group: the labels land at the odd positions.
  const pieces = text.split(LABEL);
  const parts: RedactedPart[] = [];
  pieces.forEach((piece, i) => {
    // Odd pieces are the label pattern's captures: RedactionLabel names only
    if (i % 2 === 1) parts.push({ kind: 'label', label: piece as RedactionLabel });
    else if (piece) parts.push({ kind: 'text', text: piece });
  });
  return parts;
}

/** Whether a text holds any label (a view can skip the chip rendering otherwise). */
export function hasRedactions(text: string): boolean {
  return LABEL.test(text);
}
