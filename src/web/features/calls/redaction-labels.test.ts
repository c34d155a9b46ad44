import { describe, expect, it } from 'vitest';
import { REDACTION_LABELS } from '../../../contract/privacy';
import {
  hasRedactions,
  REDACTION_LABEL_NAMES,
  REDACTION_LABEL_WORDS,
  splitRedactions,
} from './redaction-labels';

describe('splitRedactions', () => {
  it('cuts a transcript line at each label, in order', () => {
    expect(splitRedactions('my card is [CARD], expiry [EXPIRY]')).toEqual([
      { kind: 'text', text: 'my card is ' },
      { kind: 'label', label: 'CARD' },
      { kind: 'text', text: ', expiry ' },
      { kind: 'label', label: 'EXPIRY' },
    ]);
  });

  it('reads labels at the start, back to back, and the same label twice', () => {
    expect(splitRedactions('[EMAIL][PHONE] or [EMAIL]')).toEqual([
      { kind: 'label', label: 'EMAIL' },
      { kind: 'label', label: 'PHONE' },
      { kind: 'text', text: ' or ' },
      { kind: 'label', label: 'EMAIL' },
    ]);
  });

  it('knows every label the server writes, each with a name and words', () => {
    for (const label of REDACTION_LABELS) {
      expect(splitRedactions(`a [${label}] b`)).toEqual([
        { kind: 'text', text: 'a ' },
        { kind: 'label', label },
        { kind: 'text', text: ' b' },
      ]);
      expect(REDACTION_LABEL_NAMES[label]).toMatch(/removed$/);
      expect(REDACTION_LABEL_WORDS[label]).not.toBe('');
    }
    // NATIONAL_ID is not read as NI followed by something else.
    expect(splitRedactions('[NATIONAL_ID]')).toEqual([{ kind: 'label', label: 'NATIONAL_ID' }]);
  });

  it('leaves other brackets, lower case and half labels as text', () => {
    for (const text of ['[laughs] sure', 'my [card] is', '[CARD', 'CARD]', '[ CARD ]', '[CARDS]', '[]']) {
      expect(splitRedactions(text)).toEqual([{ kind: 'text', text }]);
      expect(hasRedactions(text)).toBe(false);
    }
  });

  it('gives nothing for empty text and one part for text without labels', () => {
    expect(splitRedactions('')).toEqual([]);
    expect(splitRedactions('Hello there')).toEqual([{ kind: 'text', text: 'Hello there' }]);
    expect(hasRedactions('call me at [PHONE]')).toBe(true);
  });

  it('is the same on every call (no state kept between texts)', () => {
    const line = 'card [CARD] and [CVC]';
    expect(splitRedactions(line)).toEqual(splitRedactions(line));
    expect(hasRedactions(line)).toBe(true);
    expect(hasRedactions(line)).toBe(true);
  });
});
