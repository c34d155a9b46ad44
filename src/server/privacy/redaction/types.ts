/**
 * What the redaction engine takes and answers (the options a client chose, the counts of what was
 * found) and the one shape every category's detector records a finding in. No logic beyond the
 * empty count.
 */

export interface RedactionOptions {
  cards: boolean;
  nationalIds: boolean;
  emails: boolean;
  phones: boolean;
  dates: boolean;
  addresses: boolean;
  /** ISO 3166 alpha-2 codes of further countries whose ID formats are looked for (US, GB always). */
  nationalIdCountries: string[];
  /** The call's own from/to numbers (E.164): never redacted, they are the call's metadata. */
  keepNumbers?: string[];
}

export interface RedactionFound {
  card: number;
  /** Of the cards found, how many pass the Luhn check: a label only, a card is redacted either way. */
  cardLuhnValid: number;
  expiry: number;
  cvc: number;
  ssn: number;
  ni: number;
  nationalId: number;
  email: number;
  phone: number;
  dob: number;
  address: number;
}

export interface RedactionResult {
  text: string;
  found: RedactionFound;
}

export type FoundKey = Exclude<keyof RedactionFound, 'cardLuhnValid'>;

export interface Span {
  start: number;
  end: number;
  key: FoundKey;
  label: string;
  luhn?: boolean;
  /** A card's digits as read (for the checks a card found across two lines must pass). */
  digits?: string;
  /** A piece of a finding cut by a line boundary: labelled, but counted with its first piece. */
  uncounted?: boolean;
}

export function emptyFound(): RedactionFound {
  return {
    card: 0,
    cardLuhnValid: 0,
    expiry: 0,
    cvc: 0,
    ssn: 0,
    ni: 0,
    nationalId: 0,
    email: 0,
    phone: 0,
    dob: 0,
    address: 0,
  };
}
