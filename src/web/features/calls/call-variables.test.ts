import { describe, expect, it } from 'vitest';
import { callVariables } from './call-variables';

describe('a call’s variables in the drawer', () => {
  it('keeps what the agent collected apart from what the platform sets on every call', () => {
    const { collected, system } = callVariables({
      call_id: 'd9cce3f3-23cf-4fa7-b62c-8be8119b8715',
      now_utc: 'Wed, 04 Mar 2026 15:00:00 GMT',
      from: '+17163511654',
      to: '+12223334444',
      Phone_Number: '+12223334444',
      appointment_time: 'Tuesday 10:00',
      party_size: 4,
    });
    expect(collected).toEqual([
      { key: 'appointment_time', label: 'appointment time', value: 'Tuesday 10:00' },
      { key: 'party_size', label: 'party size', value: '4' },
    ]);
    expect(system.map((v) => v.key)).toEqual(['call_id', 'now_utc', 'from', 'to', 'Phone_Number']);
  });

  it('leaves out values with nothing to show', () => {
    const { collected } = callVariables({ name: '', note: '—', spare: null, city_wanted: ' Paris ' });
    expect(collected).toEqual([{ key: 'city_wanted', label: 'city wanted', value: 'Paris' }]);
    expect(callVariables(null)).toEqual({ collected: [], system: [] });
  });
});
