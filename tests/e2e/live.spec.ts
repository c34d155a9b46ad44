/**
 * Issue 17 in the browser: the client's dashboard and the admin's view of the same client update
 * by themselves when a call arrives through the Bland stand-in; calls in progress show in
 * "Live now". Screenshots and axe at both widths.
 */
import { expect, test } from '@playwright/test';
import { AdminLoginPage } from './pages/admin-login-page';
import { clientSession, loginClientApi, placeTestCall } from './support/api';
import { expectNoSeriousA11yViolations } from './support/axe';
import { ADMIN, CLIENT, VOICE_SIM_URL } from './support/env';
import { screenshotBothWidths } from './support/screenshots';

test.use({ contextOptions: { reducedMotion: 'reduce' } });

test('a call placed through the provider appears in the client dashboard and the admin view without a reload', async ({
  page,
  browser,
}) => {
  await loginClientApi(page, CLIENT.email, CLIENT.password);
  const { id, webhookUrl } = await clientSession(page.request);
  await page.goto('/dashboard');
  await expect(page.getByTestId('live-indicator')).toHaveText('Live');

  const admin = await browser.newPage();
  const login = new AdminLoginPage(admin);
  await login.open();
  await login.login(ADMIN.username, ADMIN.password);
  await expect(admin).toHaveURL(/\/admin$/);
  await admin.goto(`/admin/client/${id}`);
  await expect(admin.getByTestId('live-indicator')).toHaveText('Live');

  const number = `+1415555${String(Date.now()).slice(-4)}`;
  const shown = `+1 415 555 ${number.slice(-4)}`;
  await placeTestCall(page.request, webhookUrl, CLIENT.apiKey, { status: 'completed', from: number });
  // No reload, no sync: the stream brings it (within the debounce and a refetch).
  await expect(page.getByText(shown).first()).toBeVisible({ timeout: 5000 });
  await expect(admin.getByText(shown).first()).toBeVisible({ timeout: 5000 });

  // A call still in progress shows in "Live now" with its running time.
  const live = `+1212555${String(Date.now()).slice(-4)}`;
  await placeTestCall(page.request, webhookUrl, CLIENT.apiKey, {
    status: 'in-progress',
    queue_status: 'started',
    completed: false,
    from: live,
  });
  const strip = page.getByRole('region', { name: 'Live now' });
  await expect(strip).toContainText(`+1 212 555 ${live.slice(-4)}`, { timeout: 5000 });
  await expect(strip).toContainText(/1 call in progress|\d+ calls in progress/);
  // Bland's live events of a call not stored yet: it shows too, until its own webhook.
  const connected = await page.request.post(`${VOICE_SIM_URL}/_sim/send-event`, {
    data: { webhookUrl, call_id: 'c0ffee00-live-4e2d-9b1a-000000000001', message: 'Call connected' },
  });
  expect(connected.status()).toBe(200);
  await expect(strip).toContainText('c0ffee00', { timeout: 5000 });
  await expect(strip).toContainText('details when it ends');
  await screenshotBothWidths(page, 'live-dashboard');
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expectNoSeriousA11yViolations(page, `live dashboard (${width})`);
  }
  await admin.close();
});
