import { describe, expect, it } from 'vitest';
import type { CallStatus } from '../../db/schema';
import { mergeStatus } from './calls-repository';

const ALL: CallStatus[] = ['active', 'completed', 'failed', 'transferred', 'unknown'];
const KNOWN_ENDS: CallStatus[] = ['completed', 'failed', 'transferred'];

describe('mergeStatus', () => {
  it('never moves an ended call back to active', () => {
    for (const current of ALL) expect(mergeStatus(current, 'active')).toBe(current);
  });

  it('moves an active call to whatever ended state arrives', () => {
    for (const incoming of ALL) expect(mergeStatus('active', incoming)).toBe(incoming);
  });

  it('keeps a known outcome when a later delivery maps to unknown', () => {
    for (const current of KNOWN_ENDS) expect(mergeStatus(current, 'unknown')).toBe(current);
  });

  it('replaces unknown with a known outcome, and lets the newer of two known outcomes win', () => {
    for (const incoming of KNOWN_ENDS) expect(mergeStatus('unknown', incoming)).toBe(incoming);
    expect(mergeStatus('completed', 'transferred')).toBe('transferred');
    expect(mergeStatus('failed', 'completed')).toBe('completed');
  });
});
