/**
 * Issue 34 point 9 in the browser: a sync longer than the POST waits for runs on in the
 * background, and the sync button follows it (a "Syncing: N calls read" status) to the usual
 * success toast; Support Tools' sync history shows the provider errors that were retried, and
 * its "Sync now" follows a long sync the same way.
 */
import { expect, test } from '@playwright/test';
import { AdminDashboardPage } from './pages/admin-dashboard-page';
import { AdminLoginPage } from './pages/admin-login-page';
import { DashboardPage } from './pages/dashboard-page';
import { loginClientApi } from './support/api';
import { ADMIN, CLIENT, VOICE_SIM_URL } from './support/env';
import { screenshotBothWidths } from './support/screenshots';
import { expectToast } from './support/toast';

test.describe.configure({ timeout: 150_000 });
test.use({ contextOptions: { reducedMotion: 'reduce' } });

test('a long sync is followed in the background to its result; Support Tools shows the retried errors', async ({
  page,
}) => {
  await loginClientApi(page, CLIENT.email, CLIENT.password);
  const dashboard = new DashboardPage(page);
  await dashboard.open();

  const sim = (path: string, data: unknown) => page.request.post(`${VOICE_SIM_URL}${path}`, { data });
  expect(
    (await sim('/_sim/calls', { apiKey: CLIENT.apiKey, count: 6, createdAt: Date.now() - 60_000 })).status(),
  ).toBe(200);
  // Slow answers (longer together than the 20 s the POST waits), and every third read fails once.
  await sim('/_sim/mode', { mode: 'slow', slowMs: 6_000, times: 9 });
  await sim('/_sim/read-faults', { every: 3 });
  try {
    await page.getByRole('button', { name: 'Sync calls', exact: true }).click();
    const progress = page.getByTestId('sync-progress');
    await expect(progress).toHaveText(/^Syncing: \d+ calls read$/, { timeout: 40_000 });
    await screenshotBothWidths(page, 'sync-progress');
    await expectToast(page, 'Calls synced successfully');
    await expect(progress).toHaveCount(0);
  } finally {
    await sim('/_sim/mode', { mode: 'normal' });
    await sim('/_sim/read-faults', { every: 0 });
  }

  const login = new AdminLoginPage(page);
  await login.open();
  await login.login(ADMIN.username, ADMIN.password);
  await new AdminDashboardPage(page).waitForClients();
  const clients = await (await page.request.get('/api/admin/clients')).json();
  const client = clients.find((c: { email: string }) => c.email === CLIENT.email);
  await page.getByRole('tab', { name: 'Support Tools' }).click();
  await page.getByLabel('Client', { exact: true }).first().selectOption(client.id);
  const history = page.getByRole('table', { name: 'Sync history' });
  await expect(history.getByRole('columnheader', { name: 'Retried' })).toBeVisible();
  await expect(history.getByRole('row').nth(1)).toContainText(/(429|500|503) ×\d/);
  await history.scrollIntoViewIfNeeded();
  await screenshotBothWidths(page, 'sync-history-retried');

  // The admin's "Sync now" is the same sync: followed in the background with its progress.
  await sim('/_sim/calls', { apiKey: CLIENT.apiKey, count: 2, createdAt: Date.now() - 30_000 });
  // The list and the details (read side by side) at 12 s each outlast the 20 s the POST waits.
  await sim('/_sim/mode', { mode: 'slow', slowMs: 12_000, times: 3 });
  try {
    await page.getByRole('button', { name: 'Sync now' }).click();
    const adminProgress = page.getByTestId('admin-sync-progress');
    await expect(adminProgress).toHaveText(/^Syncing: \d+ calls read$/, { timeout: 40_000 });
    await screenshotBothWidths(page, 'admin-sync-progress');
    await expectToast(page, 'Sync finished');
    await expect(adminProgress).toHaveCount(0);
  } finally {
    await sim('/_sim/mode', { mode: 'normal' });
  }
});
