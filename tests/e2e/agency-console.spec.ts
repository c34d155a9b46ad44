/**
 * Issue 16 end to end, as an agency owner: Analytics shows the portfolio and a client at risk
 * whose key the provider refuses; Support Tools shows the deliveries that explain its missing
 * calls; the key is fixed in the edit dialog, the deliveries replayed, and the calls appear in the
 * client's dashboard. Then the audit log and the admins. Screenshots and axe at both widths.
 */
import { expect, type Page, test } from '@playwright/test';
import { AdminDashboardPage } from './pages/admin-dashboard-page';
import { AdminLoginPage } from './pages/admin-login-page';
import { placeTestCall } from './support/api';
import { expectNoSeriousA11yViolations } from './support/axe';
import { ADMIN, SUPPORT_CLIENT } from './support/env';
import { screenshotBothWidths } from './support/screenshots';
import { expectToast } from './support/toast';

test.describe.configure({ timeout: 120_000 });
test.use({ contextOptions: { reducedMotion: 'reduce' } });

async function axeBothWidths(page: Page, where: string) {
  for (const [label, width, height] of [
    ['desktop', 1280, 900],
    ['phone', 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expectNoSeriousA11yViolations(page, `${where} (${label})`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function setApiKey(admin: AdminDashboardPage, page: Page, key: string, outcome: RegExp) {
  await page.getByRole('tab', { name: 'Client Management' }).click();
  await admin.rowAction(admin.rowByText(SUPPORT_CLIENT.company), 'Edit');
  await admin.editField('Bland AI API Key').fill(key);
  await admin.editDialog.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Client configuration updated', outcome);
  await expect(admin.editDialog).toBeHidden();
}

/** A key the platform refuses is saved (the agency sees it fail), and the dialog says why. */
async function setRefusedApiKey(admin: AdminDashboardPage, page: Page, key: string) {
  await page.getByRole('tab', { name: 'Client Management' }).click();
  await admin.rowAction(admin.rowByText(SUPPORT_CLIENT.company), 'Edit');
  await admin.editField('Bland AI API Key').fill(key);
  await admin.editDialog.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'API key refused', 'The other changes are saved');
  await expect(admin.editDialog.getByText(/rejected the API key/)).toBeVisible();
  await admin.editDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(admin.editDialog).toBeHidden();
}

test('an agency owner finds a client at risk, replays its refused deliveries and sees its calls appear', async ({
  page,
}) => {
  const login = new AdminLoginPage(page);
  await login.open();
  await login.login(ADMIN.username, ADMIN.password);
  const admin = new AdminDashboardPage(page);
  await admin.waitForClients();

  const clients = await (await page.request.get('/api/admin/clients')).json();
  const client = clients.find((c: { email: string }) => c.email === SUPPORT_CLIENT.email);

  // The key stops working; the provider's calls arrive, but cannot be confirmed with it.
  await setRefusedApiKey(admin, page, 'sim_e2e_support_revoked');
  const placed = [
    await placeTestCall(page.request, client.webhookUrl, SUPPORT_CLIENT.apiKey),
    await placeTestCall(page.request, client.webhookUrl, SUPPORT_CLIENT.apiKey),
  ];

  // Analytics: the portfolio, and the client at risk with its reason in words.
  await page.getByRole('tab', { name: 'Analytics' }).click();
  await expect(page.getByTestId('portfolio-chart')).toBeVisible();
  // The client table is ordered and narrowed on the server: find the client by name, order by name.
  const table = page.getByRole('table', { name: 'Clients by revenue, cost and margin' });
  await expect(table).toBeVisible();
  await page.getByRole('searchbox', { name: 'Find a client in the table' }).fill(SUPPORT_CLIENT.company);
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText(SUPPORT_CLIENT.company);
  await page.getByRole('searchbox', { name: 'Find a client in the table' }).fill('');
  await expect.poll(() => table.getByRole('row').count()).toBeGreaterThan(2);
  await table.getByRole('button', { name: 'Client' }).click();
  await expect(table.getByRole('columnheader', { name: 'Client' })).toHaveAttribute('aria-sort', 'ascending');
  const atRisk = page.getByRole('list', { name: 'Clients at risk' }).getByRole('listitem').filter({
    hasText: SUPPORT_CLIENT.company,
  });
  await expect(atRisk.first()).toContainText('Bland AI refuses the API key');
  await page.getByLabel('Date Range').selectOption('7d');
  await expect(page.getByText(/, against /)).toBeVisible();
  await screenshotBothWidths(page, 'console-analytics');
  await axeBothWidths(page, 'admin analytics');

  // Support Tools, straight from the at-risk list: the deliveries that explain the missing calls.
  await atRisk.first().getByRole('button', { name: 'Support tools' }).click();
  await expect(page.getByLabel('Client', { exact: true }).first()).toHaveValue(client.id);
  const deliveries = page.getByRole('table', { name: 'Webhook deliveries' });
  await expect(deliveries.getByRole('row').filter({ hasText: 'Unconfirmed' })).toHaveCount(2);
  await expect(deliveries).toContainText("refused the client's API key");
  await deliveries.getByRole('button', { name: 'Body' }).first().click();
  const body = page.getByRole('dialog', { name: 'Delivery body' });
  await expect(body).toContainText(placed[1].call_id);
  await page.keyboard.press('Escape');
  await screenshotBothWidths(page, 'console-support');
  await axeBothWidths(page, 'admin support tools');

  // The key is fixed; each delivery replayed once.
  await setApiKey(admin, page, SUPPORT_CLIENT.apiKey, /verified/);
  await page.getByRole('tab', { name: 'Support Tools' }).click();
  for (const { call_id } of placed) {
    await deliveries
      .getByRole('row')
      .filter({ hasText: 'Unconfirmed' })
      .filter({ hasText: call_id })
      .getByRole('button', { name: 'Replay' })
      .click();
    await expectToast(page, 'Delivery replayed', 'the call is stored');
  }
  await expect(deliveries.getByRole('row').filter({ hasText: 'Stored (call updated)' })).toHaveCount(2);

  // The audit log has both replays, and the keyboard reaches its filters.
  await page.getByLabel('Action').selectOption({ label: 'Replayed a delivery' });
  await expect(page.getByRole('table', { name: 'Audit log' }).getByRole('row')).toHaveCount(3);
  await page.getByLabel('Admin', { exact: true }).focus();
  await page.keyboard.press('Tab');
  await expect(page.locator('#audit-clientId')).toBeFocused();

  // The client's dashboard now has the two calls.
  await page.goto(`/admin/client/${client.id}`);
  for (const { call_id } of placed) {
    await page.getByRole('searchbox').first().fill(call_id);
    await expect(page.getByTestId(/^call-(row|card)$/)).toHaveCount(1);
  }
});

test('admins add, reset and deactivate another admin', async ({ page }) => {
  const login = new AdminLoginPage(page);
  await login.open();
  await login.login(ADMIN.username, ADMIN.password);
  await new AdminDashboardPage(page).waitForClients();
  await page.getByRole('tab', { name: 'Support Tools' }).click();
  const username = `grace-${Date.now().toString(36)}`;
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Full name').fill('Grace Hopper');
  await page.getByRole('button', { name: 'Add admin' }).click();
  const issued = page.getByRole('dialog', { name: 'Temporary password for Grace Hopper' });
  const password = await issued.getByRole('textbox', { name: 'Temporary password' }).inputValue();
  expect(password).toMatch(/^[\w]{4}-[\w]{4}-[\w]{4}-[\w]{4}$/);
  await axeBothWidths(page, 'temporary password dialog');
  await issued.getByRole('button', { name: 'Done' }).click();

  const row = page.getByRole('table', { name: 'Admins' }).getByRole('row').filter({ hasText: username });
  await row.getByRole('button', { name: 'Deactivate' }).click();
  await expect(row).toContainText('Deactivated');
  const refused = await page.request.post('/api/admin/login', { data: { username, password } });
  expect(refused.status()).toBe(401);
  await row.getByRole('button', { name: 'Reactivate' }).click();
  await expect(row).toContainText('Active');
  const signedIn = await page.request.post('/api/admin/login', { data: { username, password } });
  expect(signedIn.status()).toBe(200);
});
