/**
 * Recording playback as a small state machine (SPEC §4): idle, loading, playing. Clicking the
 * call that is loading or playing stops it; clicking another switches; ending or failing goes
 * back to idle. Events about a call that is no longer current are ignored (a late "playing" from
 * a recording the user already switched away from).
 */
export type PlaybackState = { status: 'idle' } | { status: 'loading' | 'playing'; callId: string };

export type PlaybackEvent =
  | { type: 'toggle'; callId: string }
  | { type: 'playing'; callId: string }
  | { type: 'ended'; callId: string }
  | { type: 'failed'; callId: string };

export const IDLE: PlaybackState = { status: 'idle' };

export function playbackReducer(state: PlaybackState, event: PlaybackEvent): PlaybackState {
  const current = state.status === 'idle' ? null : state.callId;
  switch (event.type) {
    case 'toggle':
      return current === event.callId ? IDLE : { status: 'loading', callId: event.callId };
    case 'playing':
      return current === event.callId ? { status: 'playing', callId: event.callId } : state;
    case 'ended':
    case 'failed':
      return current === event.callId ? IDLE : state;
  }
}

export function playbackStatusOf(state: PlaybackState, callId: string): 'idle' | 'loading' | 'playing' {
  return state.status !== 'idle' && state.callId === callId ? state.status : 'idle';
}
