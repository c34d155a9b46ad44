/**
 * Issue 5 end to end: an admin onboards a client from nothing to a working dashboard (wizard,
 * real test call through the voice simulator, finalize, credentials, the client's own login),
 * then manages clients: search, edit, delete, sync all, the admin client view.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { AdminClientViewPage } from './pages/admin-client-view-page';
import { AdminDashboardPage } from './pages/admin-dashboard-page';
import { AdminLoginPage } from './pages/admin-login-page';
import { ClientLoginPage } from './pages/client-login-page';
import { DashboardPage } from './pages/dashboard-page';
import { placeTestCall } from './support/api';
import { expectNoSeriousA11yViolations } from './support/axe';
import { ADMIN, CLIENT } from './support/env';
import { screenshotBothWidths, settle } from './support/screenshots';
import { expectToast } from './support/toast';

async function screenshot(page: Page, name: string) {
  await screenshotBothWidths(page, name);
}

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function loginAsAdmin(page: Page): Promise<AdminDashboardPage> {
  const login = new AdminLoginPage(page);
  await login.open();
  await login.login(ADMIN.username, ADMIN.password);
  await expect(page).toHaveURL(/\/admin$/);
  const admin = new AdminDashboardPage(page);
  await admin.waitForClients();
  return admin;
}

/** The wizard's three calls, through the API with the admin's cookie: a finished, onboarded client. */
async function onboardViaApi(
  request: APIRequestContext,
  fields: { firstName: string; lastName: string; email: string; companyName: string },
) {
  const generated = await request.post('/api/admin/generate-webhook', { data: fields });
  expect(generated.status()).toBe(201);
  const { id, webhookUrl } = await generated.json();
  await placeTestCall(request, webhookUrl, undefined, { corrected_duration: '125', call_length: 2.1 });
  const finalized = await request.post(`/api/admin/finalize-client/${id}`);
  expect(finalized.status()).toBe(200);
  return { id: id as string, webhookUrl: webhookUrl as string };
}

test('an admin onboards a client end to end and the client sees the test call', async ({
  page,
  browser,
  context,
}) => {
  test.setTimeout(90_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const admin = await loginAsAdmin(page);
  await expect(page.getByText(`Welcome back, ${ADMIN.name}`, { exact: true })).toBeVisible();
  await expect(admin.stat('Total Clients')).toBeVisible();
  await screenshot(page, 'admin-dashboard');

  const email = `onboard-${unique()}@example.com`;
  const company = `Onboard ${unique()} Dental`;

  // Step 1: client information, with the form's own validation first.
  await admin.createClient.click();
  await expect(admin.wizard).toBeVisible();
  await admin.wizardStep(1);
  await admin.wizardButton('Generate Webhook').click();
  await expect(admin.wizard.getByText('First name is required')).toBeVisible();
  await expect(admin.wizard.getByText('Last name is required')).toBeVisible();
  await expect(admin.wizard.getByText('Please enter a valid email address')).toBeVisible();
  await expect(admin.wizardField('Company Website')).toHaveAttribute('type', 'url');
  await admin.wizardField('Company Website').fill('not a url');
  await admin.fillClientForm({
    firstName: 'Olivia',
    lastName: 'Onboard',
    email,
    companyName: company,
    industry: 'Healthcare',
    companySize: '11-50 employees',
    phoneNumber: '+1 415 555 0142',
  });
  await admin.wizardButton('Generate Webhook').click();
  await expect(admin.wizard.getByText('Please enter a valid URL (e.g. https://example.com)')).toBeVisible();
  await admin.wizardField('Company Website').fill('https://onboard.example.com');
  await screenshot(page, 'admin-wizard-step1');
  await admin.wizardButton('Generate Webhook').click();
  await expectToast(page, 'Webhook Generated');

  // Step 2: the webhook URL, copied.
  await admin.wizardStep(2);
  const webhookUrl = await admin.webhookUrlInput().inputValue();
  expect(webhookUrl).toMatch(/\/api\/webhooks\/voice\/[A-Za-z0-9_-]{43,}$/);
  await admin.wizardButton(/^Copy Webhook URL/).click();
  await expect(admin.wizard.getByText('Copied!')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(webhookUrl);
  await screenshot(page, 'admin-wizard-step2');

  // Back keeps the form and the URL; forward again without changes keeps the same URL.
  await admin.wizardButton('Back').click();
  await admin.wizardStep(1);
  await expect(admin.wizardField('Email')).toHaveValue(email);
  await admin.wizardButton('Generate Webhook').click();
  await admin.wizardStep(2);
  await expect(admin.webhookUrlInput()).toHaveValue(webhookUrl);

  // Step 3: wait for a real test call from the simulator.
  await admin.wizardButton('Test Webhook Connection').click();
  await admin.wizardStep(3);
  await expect(admin.wizard.getByText('Waiting for a test call…')).toBeVisible();
  await expect(admin.wizardButton('Continue')).toBeDisabled();
  await screenshot(page, 'admin-wizard-step3-waiting');
  const placed = await placeTestCall(page.request, webhookUrl, undefined, {
    corrected_duration: '95',
    call_length: 1.6,
  });
  await expect(admin.wizard.getByText('Test call received!')).toBeVisible({ timeout: 10_000 });
  await expect(admin.wizardButton('Continue')).toBeEnabled();
  await screenshot(page, 'admin-wizard-step3-received');
  await admin.wizardButton('Continue').click();

  // Step 4: summary and account creation.
  await admin.wizardStep(4);
  await expect(admin.wizard.getByText(email)).toBeVisible();
  await expect(admin.wizard.getByText('Webhook verified')).toBeVisible();
  await screenshot(page, 'admin-wizard-step4');
  await admin.wizardButton('Create Client Account').click();
  await expectToast(page, 'Client Created Successfully!', `The client account was created for ${email}.`);
  await expect(admin.wizard).toBeHidden();

  // The new client is listed with its call, found by search.
  await admin.search.fill(company.toUpperCase());
  const row = admin.rowByText(email);
  await expect(row).toHaveCount(1);
  await expect(admin.rows).toHaveCount(1);
  await expect(row).toContainText('1 call ·');
  await expect(row).toContainText('Non Active');
  // Account and key status are two labelled things: an active account without a provider key.
  const status = row.getByTestId('client-status').filter({ visible: true });
  await expect(status.getByRole('term')).toHaveText(['Account', 'API key']);
  await expect(status.getByTestId('account-status')).toHaveText('Active');
  await expect(status.getByTestId('api-key-status')).toHaveText('Non Active');

  // Reopening the wizard starts from an empty step 1.
  await admin.createClient.click();
  await admin.wizardStep(1);
  await expect(admin.wizardField('Email')).toHaveValue('');
  await page.keyboard.press('Escape');
  await expect(admin.wizard).toBeHidden();

  // Credentials: a confirmation that they replace the old password, then a dialog that stays.
  await admin.rowAction(row, 'Generate login credentials for');
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText(email);
  await screenshot(page, 'credentials-confirm');
  await expectNoSeriousA11yViolations(page, 'the credentials confirmation');
  await confirm.getByRole('button', { name: 'Replace password' }).click();
  await expect(admin.credentialsDialog).toBeVisible();
  await expect(admin.credentialsDialog.getByLabel('Email', { exact: true })).toHaveValue(email);
  const password = (
    await admin.credentialsDialog.getByLabel('Temporary password', { exact: true }).inputValue()
  ).trim();
  expect(password).toMatch(/^[A-Za-z0-9]{4}(-[A-Za-z0-9]{4}){3}$/);
  await screenshot(page, 'credentials-dialog');
  await expectNoSeriousA11yViolations(page, 'the credentials dialog');
  // It goes only when closed.
  await admin.credentialsDialog.getByRole('button', { name: 'Done' }).click();
  await expect(admin.credentialsDialog).toBeHidden();

  // The client logs in elsewhere and sees the test call on their dashboard.
  const clientContext = await browser.newContext();
  try {
    const clientPage = await clientContext.newPage();
    const login = new ClientLoginPage(clientPage);
    await login.open();
    await login.login(email, password);
    // The agency's password leads to the choice of one's own, and only then to the dashboard.
    await expect(clientPage).toHaveURL(/\/choose-password$/);
    expect((await clientPage.request.get('/api/client/calls')).status()).toBe(403);
    await screenshot(clientPage, 'choose-password');
    await expectNoSeriousA11yViolations(clientPage, 'the choose-password page');
    await login.chooseOwnPassword(password, 'my own long password');
    const dashboard = new DashboardPage(clientPage);
    await dashboard.waitForLog();
    await expect(dashboard.rows).toHaveCount(1);
    await expect(dashboard.rows.first()).toContainText('1:35');
    const calls = await (await clientPage.request.get('/api/client/calls?status=all')).json();
    expect(calls.pagination.total).toBe(1);
    expect(placed.call_id).toBeTruthy();

    // A client session is not an admin session.
    await clientPage.goto('/admin');
    await expectToast(clientPage, 'Admin Access Required', 'Please log in to access the admin dashboard.');
    await expect(clientPage).toHaveURL(/\/admin-login$/);
  } finally {
    await clientContext.close();
  }
});

test('an admin searches, edits, views and deletes clients, syncs all, and logs out', async ({ page }) => {
  test.setTimeout(90_000);
  const admin = await loginAsAdmin(page);
  const tag = unique();
  const fresh = await onboardViaApi(page.request, {
    firstName: 'Edith',
    lastName: `Editable${tag}`,
    email: `edit-${tag}@example.com`,
    companyName: `Editable ${tag} LLC`,
  });
  await page.reload();
  await admin.waitForClients();

  // Search matches company, e-mail and names, ignoring case; tabs show "coming soon".
  await admin.search.fill(CLIENT.company.toLowerCase());
  await expect(admin.rows).toHaveCount(1);
  await expect(admin.rows.first()).toContainText(CLIENT.email);
  await admin.search.fill(`EDITABLE${tag}`);
  await expect(admin.rows).toHaveCount(1);
  await admin.search.fill(`zz-no-such-client-${tag}`);
  await expect(page.getByText(`No clients match “zz-no-such-client-${tag}”.`)).toBeVisible();
  await admin.search.fill('');
  // The other tabs are the agency console's (agency-console.spec.ts walks through them).
  await page.getByRole('tab', { name: 'Analytics' }).click();
  await expect(page.getByText('Clients at risk', { exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Support Tools' }).click();
  await expect(page.getByText('Client support', { exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Client Management' }).click();

  // Edit: six sections, defaults, validation, a saved change and a rejected API key.
  const row = admin.row(fresh.id);
  await admin.rowAction(row, 'Edit');
  await expect(admin.editDialog).toBeVisible();
  for (const section of [
    'Personal Information',
    'Company Information',
    'Contact Information',
    'Account Settings',
    'API Integration',
    'Admin Notes',
  ]) {
    await expect(admin.editDialog.getByRole('heading', { name: section })).toBeVisible();
  }
  await expect(admin.editField('Per Minute Rate ($)')).toHaveValue('0.15');
  await expect(admin.editField('Per Minute Rate ($)')).toHaveAttribute('step', '0.01');
  await expect(admin.editField('Timezone')).toHaveValue('UTC');
  await expect(admin.editDialog.getByRole('combobox', { name: 'Account Type' })).toContainText('Individual');
  await expect(admin.editDialog.getByRole('switch', { name: 'Account Status' })).toBeChecked();
  await expect(admin.editField('Company Website')).toHaveAttribute('type', 'url');
  await admin.editDialog.getByRole('combobox', { name: 'Industry' }).click();
  await expect(page.getByRole('option', { name: 'Real Estate' })).toBeVisible();
  await page.keyboard.press('Escape');
  await screenshot(page, 'admin-edit-dialog');
  await admin.editDialog.getByRole('heading', { name: 'Admin Notes' }).scrollIntoViewIfNeeded();
  await screenshot(page, 'admin-edit-dialog-bottom');

  await admin.editField('Email').fill('');
  await admin.editField('Per Minute Rate ($)').fill('0.125');
  await admin.editDialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(admin.editDialog.getByText('Email is required')).toBeVisible();
  await expect(admin.editDialog.getByText('Rate can have at most two decimals')).toBeVisible();

  await admin.editField('Email').fill(`edit-${tag}@example.com`);
  await admin.editField('Per Minute Rate ($)').fill('0.25');
  await admin.editField('Company Name').fill(`Edited ${tag} LLC`);
  await admin.editField('Bland AI API Key').fill(`not-a-real-key-${tag}`);
  await admin.editDialog.getByRole('button', { name: 'Save Changes' }).click();
  // A refused key keeps the dialog open with the reason at the key; the rest is saved.
  await expectToast(page, 'API key refused', 'The other changes are saved');
  await expect(admin.editDialog).toBeVisible();
  await expect(admin.editDialog.getByText(/rejected the API key/)).toBeVisible();
  await screenshot(page, 'admin-edit-dialog-key-refused');
  await admin.editDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(admin.editDialog).toBeHidden();
  await expect(row).toContainText(`Edited ${tag} LLC`);
  await expect(row).toContainText('Invalid Key');

  // Reopened, the key shows masked; saving again keeps it.
  await admin.rowAction(row, 'Edit');
  await expect(admin.editField('Bland AI API Key')).toHaveValue(/^not….{4}$/);
  await expect(admin.editField('Per Minute Rate ($)')).toHaveValue('0.25');
  await admin.editDialog.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Client configuration updated');
  await expect(row).toContainText('Invalid Key');

  // The admin client view: header, information card and the client's own calls components.
  await admin.rowAction(row, 'Login as');
  await expect(page).toHaveURL(new RegExp(`/admin/client/${fresh.id}$`));
  const view = new AdminClientViewPage(page);
  await view.waitForLoaded();
  await expect(page.getByRole('heading', { name: `Edith Editable${tag}` })).toBeVisible();
  await expect(page.getByText(`Client ID: ${fresh.id}`)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Webhook URL' })).toHaveValue(fresh.webhookUrl);
  await expect(view.info).toContainText('$0.25/min');
  await expect(view.info).toContainText('Invalid Key');
  await expect(view.callRows).toHaveCount(1);
  await expect(view.callRows.first()).toContainText('2:05');
  await expect(view.chart.getByTestId('calls-chart').locator('.recharts-line')).toBeVisible();
  await screenshot(page, 'admin-client-view');

  await view.open('00000000-0000-4000-8000-000000000000');
  await expect(page.getByText('Error Loading Client')).toBeVisible();
  await expect(page.getByText('Client not found')).toBeVisible();
  await screenshot(page, 'admin-client-view-not-found');

  // Delete with confirmation.
  await admin.open();
  await admin.rowAction(admin.row(fresh.id), 'Delete');
  await expect(admin.deleteDialog).toBeVisible();
  await expect(admin.deleteDialog).toContainText('This action cannot be undone.');
  await screenshot(page, 'admin-delete-dialog');
  await admin.deleteDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(admin.row(fresh.id)).toHaveCount(1);
  await admin.rowAction(admin.row(fresh.id), 'Delete');
  await admin.deleteDialog.getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, 'Client deleted successfully');
  await expect(admin.row(fresh.id)).toHaveCount(0);
  expect((await page.request.get(`/api/admin/client-data/${fresh.id}`)).status()).toBe(404);

  // Sync all: the toast follows what the server answered.
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/admin/sync-all-clients'));
  await admin.syncAll.click();
  const result = await (await answer).json();
  if (result.success) await expectToast(page, 'All client data synced successfully', result.message);
  else await expectToast(page, 'Failed to sync client data', result.message);

  await admin.logout.click();
  await expectToast(page, 'Logged out');
  await expect(page).toHaveURL(/\/admin-login$/);
});

test('an admin sets a webhook signing secret and rotates a leaked webhook URL', async ({ page }) => {
  const admin = await loginAsAdmin(page);
  const tag = unique();
  const client = await onboardViaApi(page.request, {
    firstName: 'Sigrid',
    lastName: `Signed${tag}`,
    email: `signed-${tag}@example.com`,
    companyName: `Signed ${tag} LLC`,
  });
  await page.reload();
  await admin.waitForClients();
  const row = admin.row(client.id);

  await admin.rowAction(row, 'Edit');
  const secretField = admin.editField('Webhook Signing Secret');
  await expect(secretField).toHaveAttribute('type', 'password');
  await expect(admin.editDialog.getByTestId('signing-secret-state')).toContainText('Not set');
  await secretField.fill('too short');
  await admin.editDialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(admin.editDialog.getByText(/at least 8 characters|printable characters/)).toBeVisible();
  await secretField.fill(`bland-secret-${tag}`);
  await admin.editDialog.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Client configuration updated');
  await expect(admin.editDialog).toBeHidden();

  // Unsigned deliveries are refused now.
  const unsigned = await page.request.post(client.webhookUrl, { data: { call_id: 'x' } });
  expect(unsigned.status()).toBe(401);

  // Reopened: the secret is never shown, only that it is set; then the URL is rotated.
  await admin.rowAction(row, 'Edit');
  await expect(secretField).toHaveValue('');
  await expect(admin.editDialog.getByTestId('signing-secret-state')).toContainText('Set:');
  await admin.editDialog.getByRole('button', { name: 'Rotate Webhook URL' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Rotate Webhook URL' });
  await expect(confirm).toContainText('stops working at once');
  await settle(page);
  await screenshotBothWidths(page, 'admin-rotate-webhook');
  await confirm.getByRole('button', { name: 'Rotate' }).click();
  await expectToast(page, 'Webhook URL Rotated');
  const urlField = admin.editField('Webhook URL');
  await expect(urlField).not.toHaveValue(client.webhookUrl);
  const rotatedUrl = await urlField.inputValue();
  expect(rotatedUrl).toMatch(/\/api\/webhooks\/voice\/[A-Za-z0-9_-]{20,}$/);
  expect((await page.request.post(client.webhookUrl, { data: {} })).status()).toBe(404);

  // Removing the secret takes the button and a save.
  await admin.editDialog.getByRole('button', { name: 'Remove secret' }).click();
  await expect(admin.editDialog.getByTestId('signing-secret-state')).toContainText('Will be removed');
  await admin.editDialog.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Client configuration updated');
  const config = await (await page.request.get(`/api/admin/client-config/${client.id}`)).json();
  expect(config).toMatchObject({ hasWebhookSigningSecret: false, webhookUrl: rotatedUrl });
});

test("the wizard's webhook step takes an optional signing secret", async ({ page }) => {
  const admin = await loginAsAdmin(page);
  const email = `signing-${unique()}@example.com`;
  await admin.createClient.click();
  await admin.wizardStep(1);
  await admin.fillClientForm({ firstName: 'Sana', lastName: 'Signer', email, companyName: 'Signer LLC' });
  await admin.wizardButton('Generate Webhook').click();
  await expectToast(page, 'Webhook Generated');
  await admin.wizardStep(2);

  const secret = admin.wizard.getByLabel('Webhook Signing Secret (optional)');
  await expect(secret).toHaveAttribute('type', 'password');
  await secret.fill('has a space');
  await admin.wizardButton('Save Secret').click();
  await expect(
    admin.wizard.getByText('The signing secret may only contain printable characters'),
  ).toBeVisible();
  await secret.fill('bland-wizard-secret-01');
  await admin.wizardButton('Save Secret').click();
  await expect(
    admin.wizard.getByText('Saved: deliveries without a valid signature are refused.'),
  ).toBeVisible();
  await expect(secret).toHaveValue('');
  await screenshot(page, 'admin-wizard-signing-secret');

  // The draft's URL now refuses what Bland did not sign.
  const webhookUrl = await admin.webhookUrlInput().inputValue();
  const unsigned = await page.request.post(webhookUrl, { data: { call_id: 'unsigned-test' } });
  expect(unsigned.status()).toBe(401);
});

test('the wizard starts digests at sign-in unless "Start digests now" is switched on', async ({ page }) => {
  const admin = await loginAsAdmin(page);
  await admin.createClient.click();
  await admin.wizardStep(1);
  const notifyNow = admin.wizard.getByRole('switch', { name: 'Start digests now' });
  await expect(notifyNow).not.toBeChecked();
  await admin.fillClientForm({
    firstName: 'Nora',
    lastName: 'Now',
    email: `notify-now-${unique()}@example.com`,
    companyName: 'Now LLC',
  });
  await notifyNow.click();
  await expect(notifyNow).toBeChecked();
  await notifyNow.scrollIntoViewIfNeeded();
  await screenshotBothWidths(page, 'admin-wizard-notify-now');
  // The dialog scrolls inside itself: at 390 px the full-page shot shows its top, so the switch
  // is shot again where it is.
  await page.setViewportSize({ width: 390, height: 844 });
  await notifyNow.scrollIntoViewIfNeeded();
  await settle(page);
  await page.screenshot({ path: 'test-results/screens/admin-wizard-notify-now-switch-phone.png' });
  await page.setViewportSize({ width: 1280, height: 900 });
  const sent = page.waitForRequest((r) => r.url().endsWith('/api/admin/generate-webhook'));
  await admin.wizardButton('Generate Webhook').click();
  expect((await sent).postDataJSON()).toMatchObject({ notifyNow: true });
  await expectToast(page, 'Webhook Generated');
});

test('/admin/client without an id says "Invalid Client Access", not the 404 page', async ({ page }) => {
  await loginAsAdmin(page);
  for (const path of ['/admin/client', '/admin/client/']) {
    await page.goto(path);
    await expect(page.getByText('Invalid Client Access')).toBeVisible();
  }
});
