/** E-mail addresses: written and spoken ones found, only with the category on, and not a workplace. */
import { describe, expect, it } from 'vitest';
import { NONE } from '../../../../tests/fixtures/redaction-options';
import { redactText } from './engine';

describe('redactText', () => {
  it('finds written and spelled addresses only when e-mails are chosen, and no place of work', () => {
    const said = 'mail jo@example.com or j o at gmail dot com';
    const r = redactText(said, { ...NONE, emails: true });
    expect(r.text).toBe('mail [EMAIL] or [EMAIL]');
    expect(r.found.email).toBe(2);
    expect(redactText(said, NONE).text).toBe(said);
    expect(redactText('I work at acme dot com', { ...NONE, emails: true }).text).toBe(
      'I work at acme dot com',
    );
  });
});
