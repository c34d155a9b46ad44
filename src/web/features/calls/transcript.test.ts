import { describe, expect, it } from 'vitest';
import { formatTranscriptTime, parseTimedTranscript, parseTranscript, speakerOf } from './transcript';

describe('parseTranscript', () => {
  it('reads role/speaker and text/content/message', () => {
    const raw = JSON.stringify([
      { role: 'agent', text: 'Hello', timestamp: '2025-03-05T14:00:00.000Z' },
      { role: 'user', content: 'Hi there' },
      { speaker: 'assistant', message: 'How can I help?' },
      { speaker: 'customer', text: 'Booking please' },
    ]);
    expect(parseTranscript(raw)).toEqual([
      { speaker: 'AI Agent', text: 'Hello', timestamp: '2025-03-05T14:00:00.000Z' },
      { speaker: 'Caller', text: 'Hi there' },
      { speaker: 'AI Agent', text: 'How can I help?' },
      { speaker: 'Caller', text: 'Booking please' },
    ]);
  });

  it('answers null for missing, unparseable, non-array and empty transcripts', () => {
    for (const raw of [
      null,
      undefined,
      '',
      'not json',
      '{"role":"agent"}',
      '"text"',
      '42',
      '[]',
      '[1, "a", null]',
    ]) {
      expect(parseTranscript(raw)).toBeNull();
    }
  });

  it('treats unknown or missing roles as the caller, case-insensitively for the agent', () => {
    expect(speakerOf({ role: 'AGENT' })).toBe('AI Agent');
    expect(speakerOf({ speaker: 'Assistant' })).toBe('AI Agent');
    expect(speakerOf({})).toBe('Caller');
    expect(speakerOf({ role: 'bot' })).toBe('Caller');
  });

  it('keeps entries without text as empty lines rather than dropping the transcript', () => {
    expect(parseTranscript('[{"role":"agent"}]')).toEqual([{ speaker: 'AI Agent', text: '' }]);
  });
});

describe('parseTimedTranscript', () => {
  it('keeps each line’s start and end in ms where the stored line has them', () => {
    const raw = JSON.stringify([
      { role: 'agent', text: 'Hello', startMs: 0, endMs: 3000 },
      'not a line',
      { role: 'user', text: 'Hi', startMs: 3500, endMs: 6000 },
      { role: 'agent', text: 'Bye', startMs: 'soon' },
    ]);
    expect(parseTimedTranscript(raw)).toEqual([
      { speaker: 'AI Agent', text: 'Hello', startMs: 0, endMs: 3000 },
      { speaker: 'Caller', text: 'Hi', startMs: 3500, endMs: 6000 },
      { speaker: 'AI Agent', text: 'Bye' },
    ]);
    expect(parseTimedTranscript('nope')).toBeNull();
  });
});

describe('formatTranscriptTime', () => {
  it('shows ISO instants as a 12-hour time, seconds as m:ss, other text as is', () => {
    expect(formatTranscriptTime('2025-03-05T14:03:09.000Z', 'UTC')).toBe('2:03:09 PM');
    expect(formatTranscriptTime('75')).toBe('1:15');
    expect(formatTranscriptTime('5.6')).toBe('0:05');
    expect(formatTranscriptTime('soon')).toBe('soon');
  });
});
