import { describe, expect, it } from 'vitest';
import { IDLE, playbackReducer, playbackStatusOf } from './playback-state';

describe('playback state', () => {
  it('idle → loading → playing → ended → idle', () => {
    let s = playbackReducer(IDLE, { type: 'toggle', callId: 'a' });
    expect(s).toEqual({ status: 'loading', callId: 'a' });
    s = playbackReducer(s, { type: 'playing', callId: 'a' });
    expect(s).toEqual({ status: 'playing', callId: 'a' });
    expect(playbackStatusOf(s, 'a')).toBe('playing');
    expect(playbackStatusOf(s, 'b')).toBe('idle');
    expect(playbackReducer(s, { type: 'ended', callId: 'a' })).toEqual(IDLE);
  });

  it('clicking the same call stops it, whether loading or playing', () => {
    const loading = playbackReducer(IDLE, { type: 'toggle', callId: 'a' });
    expect(playbackReducer(loading, { type: 'toggle', callId: 'a' })).toEqual(IDLE);
    const playing = playbackReducer(loading, { type: 'playing', callId: 'a' });
    expect(playbackReducer(playing, { type: 'toggle', callId: 'a' })).toEqual(IDLE);
  });

  it('another call switches, and late events of the old one are ignored', () => {
    const a = playbackReducer(playbackReducer(IDLE, { type: 'toggle', callId: 'a' }), {
      type: 'playing',
      callId: 'a',
    });
    const b = playbackReducer(a, { type: 'toggle', callId: 'b' });
    expect(b).toEqual({ status: 'loading', callId: 'b' });
    expect(playbackReducer(b, { type: 'playing', callId: 'a' })).toBe(b);
    expect(playbackReducer(b, { type: 'failed', callId: 'a' })).toBe(b);
    expect(playbackReducer(b, { type: 'failed', callId: 'b' })).toEqual(IDLE);
  });
});
