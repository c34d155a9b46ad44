import { expect, test } from '@playwright/test';
import { clientSession, loginClientApi, placeTestCall } from './support/api';
import { CLIENT } from './support/env';

// Issue 3's end-to-end promise: a call placed through the simulator arrives by webhook, and its
// recording, streamed through our server, is audio that Chromium really plays.
test('a call placed through the simulator arrives by webhook and its recording plays in Chromium', async ({
  page,
}) => {
  await loginClientApi(page, CLIENT.email, CLIENT.password);
  const session = await clientSession(page.request);
  const placed = await placeTestCall(page.request, session.webhookUrl, CLIENT.apiKey, {
    recording_url: 'https://recordings.invalid/e2e.mp3',
  });

  const list = await (await page.request.get('/api/client/calls?status=all&limit=100')).json();
  const call = list.calls.find((c: { recordingUrl?: string; id: string }) => c.recordingUrl);
  expect(call, `call ${placed.call_id} listed with a recording`).toBeTruthy();

  await page.goto('/');
  const played = await page.evaluate(async (src) => {
    const audio = new Audio(src);
    audio.muted = true;
    await audio.play();
    await new Promise((resolve) => setTimeout(resolve, 600));
    return {
      currentTime: audio.currentTime,
      duration: audio.duration,
      paused: audio.paused,
      error: audio.error?.code ?? null,
    };
  }, `/api/client/recording/${call.id}`);
  expect(played.error).toBeNull();
  expect(played.paused).toBe(false);
  expect(played.duration).toBeGreaterThan(0.5);
  expect(played.currentTime).toBeGreaterThan(0);
});
