import { describe, expect, it } from 'vitest';
import { windowLabel } from './window-label';

// Monday Dec 7, 2026 at 15:05 in New York (20:05 UTC).
const NOW = Date.UTC(2026, 11, 7, 20, 5);

describe('window label', () => {
  it('labels a rolling preset with its first and last instants in the account’s zone', () => {
    expect(windowLabel({ dateRange: '7d', from: '', to: '' }, NOW, 'America/New_York')).toBe(
      'Nov 30, 3:05 PM – Dec 7, 3:05 PM (America/New_York)',
    );
    // The same instants, another zone: other dates.
    expect(windowLabel({ dateRange: '1d', from: '', to: '' }, NOW, 'Asia/Tokyo')).toBe(
      'Dec 7, 5:05 AM – Dec 8, 5:05 AM (Asia/Tokyo)',
    );
  });

  it('labels a custom range as whole local days', () => {
    expect(windowLabel({ dateRange: '7d', from: '2026-12-01', to: '2026-12-07' }, NOW, 'UTC')).toBe(
      'Dec 1 – Dec 7, 2026, whole days (UTC)',
    );
  });

  it('falls back to UTC for a zone it does not know', () => {
    expect(windowLabel({ dateRange: '7d', from: '', to: '' }, NOW, 'Mars/Olympus')).toBe(
      'Nov 30, 8:05 PM – Dec 7, 8:05 PM (UTC)',
    );
  });
});
