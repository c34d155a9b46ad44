import { describe, expect, it } from 'vitest';
import { DEFAULT_REDACTION, KEEP_FOREVER } from '../../../contract/privacy';
import {
  attachmentFileName,
  changesOf,
  draftOf,
  erasureSubjectOf,
  erasureTotals,
  parseRetention,
  providerAnswer,
  RETENTION_FORMAT_PROBLEM,
  readablePhone,
  retentionErrorsOf,
  retentionHint,
  turnedOn,
} from './privacy-draft';

const saved = {
  redaction: DEFAULT_REDACTION,
  nationalIdCountries: [] as 'CA'[],
  retention: { transcriptDays: 30, recordingDays: null, callDays: 365 },
};

describe('retention inputs', () => {
  it('shows kept as empty and days as their number', () => {
    expect(draftOf(saved).retention).toEqual({ transcriptDays: '30', recordingDays: '', callDays: '365' });
  });

  it('reads empty as keep, whole days as numbers, and names what is not a day count', () => {
    expect(parseRetention({ transcriptDays: ' 7 ', recordingDays: '', callDays: '1,000' })).toEqual({
      retention: { transcriptDays: 7, recordingDays: null, callDays: 1000 },
      problems: {},
    });
    for (const bad of ['0', '-3', '1.5', 'seven', '3651', '7d']) {
      const { problems } = parseRetention({ transcriptDays: bad, recordingDays: '', callDays: '' });
      expect(problems, bad).toEqual({ transcriptDays: RETENTION_FORMAT_PROBLEM });
    }
    expect(parseRetention({ transcriptDays: '3650', recordingDays: '', callDays: '' }).problems).toEqual({});
  });

  it('says the agency’s limit to a client, and what empty means', () => {
    expect(retentionHint(null, true)).toBe('Empty: kept.');
    expect(retentionHint(3000, true)).toBe('At most 3,000 days: your agency’s limit.');
    expect(retentionHint(null, false)).toBe('The longest any client keeps it. Empty: no limit.');
  });

  it('puts a 400’s retention fields beside their inputs and the rest apart', () => {
    expect(
      retentionErrorsOf({ 'retention.callDays': 'at most 365', 'redaction.cards': 'Expected boolean' }),
    ).toEqual({ callDays: 'at most 365', _: 'Expected boolean' });
  });
});

describe('what a save sends', () => {
  it('sends nothing when nothing changed', () => {
    expect(changesOf(saved, { ...saved, nationalIdCountries: [] })).toBeNull();
  });

  it('sends only the categories, countries and retention fields that changed', () => {
    const changes = changesOf(saved, {
      redaction: { ...DEFAULT_REDACTION, emails: true, nationalIds: true },
      nationalIdCountries: ['CA'],
      retention: { transcriptDays: 7, recordingDays: null, callDays: 365 },
    });
    expect(changes).toEqual({
      redaction: { emails: true, nationalIds: true },
      nationalIdCountries: ['CA'],
      retention: { transcriptDays: 7 },
    });
    expect(turnedOn(changes)).toBe(true);
  });

  it('sends the client’s "keep the caller’s own number" only when it changed; the defaults have none', () => {
    const client = { ...saved, keepCallerNumber: true };
    expect(draftOf(client).keepCallerNumber).toBe(true);
    expect(draftOf(saved)).not.toHaveProperty('keepCallerNumber');
    expect(changesOf(client, { ...client })).toBeNull();
    const off = changesOf(client, { ...client, keepCallerNumber: false });
    expect(off).toEqual({ keepCallerNumber: false });
    // Turning it off redacts the stored calls again, as turning a category on does.
    expect(turnedOn(off)).toBe(true);
    expect(changesOf(saved, { ...saved })).toBeNull();
  });

  it('never sends back a retention the agency limits unless it was edited', () => {
    // callDays shows the agency's 365: untouched, it is not sent as "keep" (which the server refuses).
    const changes = changesOf(saved, { ...saved, retention: { ...saved.retention, transcriptDays: null } });
    expect(changes).toEqual({ retention: { transcriptDays: null } });
    expect(turnedOn(changes)).toBe(false);
    expect(turnedOn(changesOf(saved, { ...saved, redaction: { ...DEFAULT_REDACTION, cards: false } }))).toBe(
      false,
    );
    expect(
      changesOf({ ...saved, retention: KEEP_FOREVER }, { ...saved, retention: KEEP_FOREVER }),
    ).toBeNull();
  });
});

describe('erasure and export', () => {
  it('reads an e-mail by its @ and anything else with digits as a phone number', () => {
    expect(erasureSubjectOf(' Jane.Doe@Example.com ')).toEqual({ email: 'jane.doe@example.com' });
    expect(erasureSubjectOf('(212) 555-0199')).toEqual({ phone: '(212) 555-0199' });
    expect(erasureSubjectOf('')).toHaveProperty('problem');
    expect(erasureSubjectOf('jane@')).toEqual({ problem: 'Enter a valid e-mail address' });
    expect(erasureSubjectOf('jane')).toHaveProperty('problem');
  });

  it('shows a phone number as the erasure reads it (US by default), else as typed', () => {
    expect(readablePhone('(212) 555-0199')).toBe('+1 212 555 0199');
    expect(readablePhone('+44 20 7946 0958')).toBe('+44 20 7946 0958');
    expect(readablePhone(' 12 ')).toBe('12');
  });

  it('names a download as the server does', () => {
    expect(attachmentFileName('attachment; filename="caller-data-12125550199.json"', 'x.json')).toBe(
      'caller-data-12125550199.json',
    );
    expect(attachmentFileName(null, 'x.json')).toBe('x.json');
  });

  it('says each platform’s answer and the totals in words', () => {
    expect(providerAnswer({ provider: 'vapi', name: 'Vapi', deleted: 2, failed: 0, unsupported: 0 })).toBe(
      'Vapi: 2 calls deleted there',
    );
    expect(
      providerAnswer({ provider: 'bland', name: 'Bland AI', deleted: 0, failed: 0, unsupported: 1 }),
    ).toBe('Bland AI: 1 call kept there: Bland AI has no way to delete a call');
    expect(
      providerAnswer({ provider: 'retell', name: 'Retell', deleted: 1, failed: 1, unsupported: 0 }),
    ).toBe('Retell: 1 call deleted there; 1 call could not be deleted (the receipt lists them)');
    expect(erasureTotals({ calls: 1, copies: 3 })).toBe('1 call and 3 stored copies removed');
    expect(erasureTotals({ calls: 0, copies: 0 })).toBe('0 calls and 0 stored copies removed');
  });
});
