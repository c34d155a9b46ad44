/**
 * One audio element per calls table and the playback rules of SPEC §4 (see playback-state.ts).
 * "Unable to load recording" is the audio failing to load; "Unable to play recording" is the
 * browser refusing to play what it loaded.
 */
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { apiRequest } from '../../lib/api';
import { toast } from '../../lib/use-toast';
import { expiredRecordingToast, isExpiredRecording } from './download-recording';
import { IDLE, playbackReducer, playbackStatusOf } from './playback-state';

type Failure = 'load' | 'play';
const FAILURE_TEXT: Record<Failure, string> = {
  load: 'Unable to load recording',
  play: 'Unable to play recording',
};

/** `onExpired` hears of a recording the server answers 410 for (gone at the provider). */
export function useCallPlayback(
  recordingUrl: ((callId: string) => string) | undefined,
  onExpired?: (callId: string) => void,
) {
  const audioRef = useRef<HTMLAudioElement>(null);
  const [state, dispatch] = useReducer(playbackReducer, IDLE);
  // The call the audio element is working on; events from the element carry no call id.
  const currentRef = useRef<string | null>(null);

  const fail = useCallback(
    (callId: string, reason: Failure) => {
      // One failure shows once, even when both the error event and play() report it.
      if (currentRef.current !== callId) return;
      currentRef.current = null;
      dispatch({ type: 'failed', callId });
      if (reason === 'play' || !recordingUrl) {
        toast({ title: 'Playback failed', description: FAILURE_TEXT[reason], variant: 'destructive' });
        return;
      }
      // An audio element does not say why it failed; ask the server once whether the recording expired.
      apiRequest('HEAD', recordingUrl(callId)).then(
        () => toast({ title: 'Playback failed', description: FAILURE_TEXT.load, variant: 'destructive' }),
        (error: unknown) => {
          if (!isExpiredRecording(error)) {
            toast({ title: 'Playback failed', description: FAILURE_TEXT.load, variant: 'destructive' });
            return;
          }
          expiredRecordingToast('play');
          onExpired?.(callId);
        },
      );
    },
    [recordingUrl, onExpired],
  );

  const stopAudio = useCallback(() => {
    const audio = audioRef.current;
    if (!audio) return;
    audio.pause();
    audio.removeAttribute('src');
    audio.load();
  }, []);

  const toggle = useCallback(
    (callId: string) => {
      const audio = audioRef.current;
      if (!audio || !recordingUrl) return;
      dispatch({ type: 'toggle', callId });
      if (currentRef.current === callId) {
        currentRef.current = null;
        stopAudio();
        return;
      }
      currentRef.current = callId;
      audio.pause();
      audio.src = recordingUrl(callId);
      audio.play().catch((error: unknown) => {
        const name = error instanceof DOMException ? error.name : '';
        // Switching or stopping interrupts play(); that is not a failure.
        if (name === 'AbortError' || currentRef.current !== callId) return;
        fail(callId, audio.error || name === 'NotSupportedError' ? 'load' : 'play');
      });
    },
    [recordingUrl, fail, stopAudio],
  );

  useEffect(() => () => audioRef.current?.pause(), []);

  const audioProps = {
    ref: audioRef,
    preload: 'none' as const,
    onPlaying: () => {
      const callId = currentRef.current;
      if (callId) dispatch({ type: 'playing', callId });
    },
    onEnded: () => {
      const callId = currentRef.current;
      if (!callId) return;
      currentRef.current = null;
      dispatch({ type: 'ended', callId });
    },
    onError: () => {
      const callId = currentRef.current;
      // A src removed on purpose also reports an error; only a current call can fail.
      if (callId && audioRef.current?.getAttribute('src')) fail(callId, 'load');
    },
  };

  return { state, toggle, statusOf: (callId: string) => playbackStatusOf(state, callId), audioProps };
}
