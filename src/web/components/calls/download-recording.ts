/** Saves a recording as recording-{id}.mp3 (SPEC §7): fetched with the session, then saved from a blob. */
import { apiRequest } from '../../lib/api';
import { toast } from '../../lib/use-toast';

export const recordingFileName = (callId: string) => `recording-${callId}.mp3`;

export async function downloadRecording(url: string, callId: string): Promise<void> {
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
  } catch {
    toast({ title: 'Download failed', description: 'Failed to download recording', variant: 'destructive' });
  }
}
