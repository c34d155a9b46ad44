/**
 * Issue 18 end to end: an admin onboards one client on Vapi and one on Retell through the wizard
 * (the platform chosen in step 1, its set-up shown in step 2, a test call through its stand-in),
 * connects the platform's key in the edit dialog, and each client sees its call, synced calls and
 * the recording on its dashboard. On Vapi the step shows the HMAC credential's settings (Vapi's
 * defaults), a signing secret is saved, and the stand-in signs its test call at those defaults.
 */
import { expect, type Page, test } from '@playwright/test';
import { AdminDashboardPage } from './pages/admin-dashboard-page';
import { AdminLoginPage } from './pages/admin-login-page';
import { ClientLoginPage } from './pages/client-login-page';
import { DashboardPage } from './pages/dashboard-page';
import { expectNoSeriousA11yViolations } from './support/axe';
import { ADMIN, RETELL_SIM_URL, VAPI_SIM_URL } from './support/env';
import { screenshotBothWidths } from './support/screenshots';
import { expectToast } from './support/toast';

const PLATFORMS = [
  {
    name: 'Vapi',
    sim: VAPI_SIM_URL,
    key: 'vapi_e2e_platform_key',
    step: 'set its Server URL to the webhook URL',
    secret: 'vapi-e2e-hmac-secret-01',
  },
  {
    name: 'Retell AI',
    sim: RETELL_SIM_URL,
    key: 'key_retell_e2e_platform',
    step: 'Agent Level Webhook URL',
    secret: null,
  },
] as const;

async function loginAsAdmin(page: Page): Promise<AdminDashboardPage> {
  const login = new AdminLoginPage(page);
  await login.open();
  await login.login(ADMIN.username, ADMIN.password);
  const admin = new AdminDashboardPage(page);
  await admin.waitForClients();
  return admin;
}

for (const platform of PLATFORMS) {
  test(`an admin onboards a client on ${platform.name} and the client sees its calls`, async ({
    page,
    browser,
  }) => {
    test.setTimeout(90_000);
    const slug = platform.name.split(' ')[0].toLowerCase();
    const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
    const email = `${slug}-${tag}@example.com`;
    // The platform account behind the key, with two calls the sync will bring.
    await page.request.post(`${platform.sim}/_sim/add-calls`, { data: { apiKey: platform.key, count: 2 } });

    const admin = await loginAsAdmin(page);
    await admin.createClient.click();
    await admin.wizardStep(1);
    await admin.chooseOption(admin.wizard, 'Voice Platform', platform.name);
    await admin.fillClientForm({
      firstName: 'Pia',
      lastName: `Platform${tag}`,
      email,
      companyName: `${platform.name} ${tag} Ltd`,
    });
    await admin.wizardButton('Generate Webhook').click();
    await expectToast(page, 'Webhook Generated');

    await admin.wizardStep(2);
    await expect(
      admin.wizard.getByText(`Connect the client’s voice agent on ${platform.name}`),
    ).toBeVisible();
    await expect(admin.wizard.getByText(platform.step, { exact: false })).toBeVisible();
    if (platform.secret) {
      // The settings to choose in Vapi for its HMAC credential: Vapi's defaults.
      const settings = admin.wizard.getByRole('region', { name: /an HMAC credential on the server URL/ });
      for (const value of ['x-signature', 'x-timestamp', '{timestamp}.{body}', 'SHA256', 'hex'])
        await expect(settings.getByText(value, { exact: true })).toBeVisible();
      await admin.wizard.getByLabel('Webhook Signing Secret (optional)').fill(platform.secret);
      await admin.wizardButton('Save Secret').click();
      await expect(
        admin.wizard.getByText('Saved: deliveries without a valid signature are refused.'),
      ).toBeVisible();
    }
    await screenshotBothWidths(page, `wizard-step2-${slug}`);
    await expectNoSeriousA11yViolations(page, `wizard step 2 on ${platform.name}`);
    const webhookUrl = await admin.webhookUrlInput().inputValue();

    await admin.wizardButton('Test Webhook Connection').click();
    await admin.wizardStep(3);
    const placed = await page.request.post(`${platform.sim}/_sim/place-test-call`, {
      // Vapi's stand-in signs with an HMAC credential at Vapi's defaults.
      data: {
        webhookUrl,
        apiKey: platform.key,
        ...(platform.secret ? { auth: { secret: platform.secret } } : {}),
      },
    });
    expect((await placed.json()).webhookStatus).toBe(200);
    await expect(admin.wizard.getByText('Test call received!')).toBeVisible({ timeout: 10_000 });
    await admin.wizardButton('Continue').click();
    await admin.wizardStep(4);
    await admin.wizardButton('Create Client Account').click();
    await expectToast(page, 'Client Created Successfully!');

    // The edit dialog names the platform and checks the key with it.
    await admin.search.fill(email);
    const row = admin.rowByText(email);
    await admin.rowAction(row, 'Edit');
    await expect(admin.editDialog.getByRole('combobox', { name: 'Voice Platform' })).toContainText(
      platform.name,
    );
    await admin.editField(`${platform.name} API Key`).fill(platform.key);
    await screenshotBothWidths(page, `edit-dialog-${slug}`);
    await admin.editDialog.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Client configuration updated');
    await expect(row).toContainText('Active');

    const password = await admin.generateCredentials(row);

    const clientContext = await browser.newContext();
    try {
      const clientPage = await clientContext.newPage();
      const login = new ClientLoginPage(clientPage);
      await login.open();
      await login.login(email, password);
      await login.chooseOwnPassword(password, 'my own long password');
      const dashboard = new DashboardPage(clientPage);
      await dashboard.waitForLog();
      await expect(dashboard.rows).toHaveCount(1);
      const synced = await clientPage.request.post('/api/client/calls/sync');
      expect(await synced.json()).toMatchObject({ created: 2 });
      await clientPage.reload();
      await dashboard.waitForLog();
      await expect(dashboard.rows).toHaveCount(3);
      const [call] = (await (await clientPage.request.get('/api/client/calls')).json()).calls;
      const audio = await clientPage.request.get(`/api/client/recording/${call.id}`);
      expect(audio.status()).toBe(200);
      expect(audio.headers()['content-type']).toBe('audio/mpeg');
      await clientPage.goto('/settings?tab=security');
      // The agency shows this client no platform name: the key's card says API Key.
      await expect(clientPage.getByText('API Key', { exact: true })).toBeVisible();
      await screenshotBothWidths(clientPage, `security-tab-${slug}`);
      await expectNoSeriousA11yViolations(clientPage, `the Security tab on ${platform.name}`);
    } finally {
      await clientContext.close();
    }
  });
}
