/**
 * The client's time zone in the browser: the wizard suggests it from the company's
 * country and state, or the admin's browser when neither says, and keeps a zone the admin picked;
 * the Owner changes it in Settings.
 */
import { expect, test } from '@playwright/test';
import { AdminDashboardPage } from './pages/admin-dashboard-page';
import { AdminLoginPage } from './pages/admin-login-page';
import { loginAsNewClient, SettingsPage } from './pages/settings-page';
import { expectNoSeriousA11yViolations } from './support/axe';
import { ADMIN } from './support/env';
import { screenshotBothWidths } from './support/screenshots';
import { expectToast } from './support/toast';

// The admin's browser is in Paris: the suggestion when the form says nothing of where the client is.
test.use({ timezoneId: 'Europe/Paris' });

test('the wizard suggests the zone from the country and state, else the browser’s', async ({ page }) => {
  const login = new AdminLoginPage(page);
  await login.open();
  await login.login(ADMIN.username, ADMIN.password);
  const admin = new AdminDashboardPage(page);
  await admin.waitForClients();
  await admin.createClient.click();
  await admin.wizardStep(1);
  test.setTimeout(90_000);

  const zone = admin.wizardField('Time Zone');
  await expect(zone).toHaveValue('Europe/Paris');
  await expect(admin.wizard.getByText(/Suggested from your browser/)).toBeVisible();

  await admin.wizardField('Country').fill('United States');
  await expect(zone).toHaveValue('America/New_York');
  await admin.wizardField('State').fill('Texas');
  await expect(zone).toHaveValue('America/Chicago');
  await expect(admin.wizard.getByText(/Suggested from the country and state/)).toBeVisible();
  await zone.scrollIntoViewIfNeeded();
  await screenshotBothWidths(page, 'wizard-time-zone-suggested');
  await expectNoSeriousA11yViolations(page, 'the wizard with its time zone');

  // A zone the admin picks stays, whatever the address says next.
  await zone.fill('Europe/Berlin');
  await admin.wizardField('Country').fill('Japan');
  await expect(zone).toHaveValue('Europe/Berlin');
  // An unknown zone is refused before anything is sent.
  await zone.fill('Mars/Olympus');
  await admin.wizardButton('Generate Webhook').click();
  await expect(
    admin.wizard.getByText('Please choose a valid time zone (e.g. UTC or America/New_York)'),
  ).toBeVisible();
});

test('the Owner changes the time zone in Settings and it survives a reload', async ({ page, request }) => {
  test.setTimeout(90_000);
  await loginAsNewClient(page, request, 'zone');
  const settings = new SettingsPage(page);
  await settings.open();
  const zone = page.getByLabel(/^Time Zone/);
  await expect(zone).toHaveValue('UTC');
  await zone.fill('America/Denver');
  await settings.saveAccount.click();
  await expectToast(page, 'Account Updated');
  await page.reload();
  await expect(page.getByLabel(/^Time Zone/)).toHaveValue('America/Denver');
  await screenshotBothWidths(page, 'settings-account-time-zone');
});
