/** Saves a recording as recording-{id}.mp3 (SPEC §7): fetched with the session, then saved from a blob. */
import { ApiError, apiRequest } from '../../lib/api';
import { toast } from '../../lib/use-toast';

export const recordingFileName = (callId: string) => `recording-${callId}.mp3`;

/** The server's 410: the provider no longer keeps this recording. */
export const isExpiredRecording = (error: unknown) => error instanceof ApiError && error.status === 410;

/** SPEC's failure toast of each action, saying why: the provider no longer keeps the recording. */
export function expiredRecordingToast(action: 'play' | 'download'): void {
  const [title, text] =
    action === 'play'
      ? ['Playback failed', 'Unable to load recording']
      : ['Download failed', 'Failed to download recording'];
  toast({ title, description: `${text}: it has expired at the voice provider.`, variant: 'destructive' });
}

/** Resolves to 'expired' when the recording is gone for good, so its buttons can be disabled. */
export async function downloadRecording(url: string, callId: string): Promise<'expired' | undefined> {
  try {
    const blob = await (await apiRequest('GET', url)).blob();
    const href = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = href;
    link.download = recordingFileName(callId);
    document.body.append(link);
    link.click();
    link.remove();
    // The browser has taken its copy once the click is handled; free the blob a little later.
    setTimeout(() => URL.revokeObjectURL(href), 60_000);
    toast({ title: 'Download started', description: 'Recording download initiated' });
  } catch (error) {
    if (isExpiredRecording(error)) {
      expiredRecordingToast('download');
      return 'expired';
    }
    toast({ title: 'Download failed', description: 'Failed to download recording', variant: 'destructive' });
  }
}
