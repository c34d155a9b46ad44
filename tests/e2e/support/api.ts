/** Intent helpers over HTTP for e2e setup: log in, place calls through the voice simulator. */
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { BASE_URL, VOICE_SIM_URL } from './env';

/** Logs the page's browser context in as a client (the cookie lands in the context). */
export async function loginClientApi(page: Page, email: string, password: string) {
  const res = await page.request.post('/api/client/login', { data: { email, password } });
  expect(res.status()).toBe(200);
}

export async function clientSession(
  request: APIRequestContext,
): Promise<{ id: string; webhookUrl: string; email: string }> {
  const res = await request.get(`${BASE_URL}/api/client/session`);
  expect(res.status()).toBe(200);
  return res.json();
}

/** Has the simulator place a finished call and POST Bland's webhook to the given URL. */
export async function placeTestCall(
  request: APIRequestContext,
  webhookUrl: string,
  apiKey?: string,
  overrides: Record<string, unknown> = {},
): Promise<{ call_id: string; status: number }> {
  const res = await request.post(`${VOICE_SIM_URL}/_sim/place-test-call`, {
    data: { webhookUrl, apiKey, overrides },
  });
  expect(res.status()).toBe(200);
  const body = await res.json();
  expect(body.status).toBe(200);
  return body;
}
