/**
 * /settings in Chromium (SPEC §2 "Client settings", §5, §8, DESIGN §6 [3] [4]): every form saves
 * and survives a reload, the validation messages, the subscription tab with usage and the cancel
 * flow, the security tab. Each test works on a brand-new client (see onboardClient).
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { CheckoutPage, useStripeStandIn } from './pages/checkout-page';
import { loginAsNewClient, onboardClient, SettingsPage } from './pages/settings-page';
import { placeTestCall } from './support/api';
import { ADMIN, BASE_URL } from './support/env';
import { screenshotBothWidths } from './support/screenshots';
import { expectToast } from './support/toast';

test('asks a visitor without a session to log in', async ({ page }) => {
  await page.goto('/settings');
  await expect(page.getByText('Please log in to access settings')).toBeVisible();
});

test('account form: SPEC messages, then saved values survive a reload', async ({ page, request }) => {
  await loginAsNewClient(page, request, 'account');
  const settings = new SettingsPage(page);
  await settings.open();
  await expect(settings.tab('Account')).toHaveAttribute('aria-selected', 'true');
  await expect(settings.firstName).toHaveValue('Casey');
  await screenshotBothWidths(page, 'settings-account');

  await settings.fillAccount({ firstName: '', lastName: '', email: 'not-an-email' });
  await settings.saveAccount.click();
  await expect(page.getByText('First name is required')).toBeVisible();
  await expect(page.getByText('Last name is required')).toBeVisible();
  await expect(page.getByText('Invalid email address')).toBeVisible();

  const email = `renamed-${randomUUID().slice(0, 6)}@example.com`;
  await settings.fillAccount({
    firstName: 'Morgan',
    lastName: 'Lee',
    email,
    companyName: 'Lee & Partners',
    jobTitle: 'Operations Lead',
    phoneNumber: '+1 415 555 0199',
  });
  await settings.saveAccount.click();
  await expectToast(page, 'Account Updated', 'Your account information has been saved successfully.');

  await page.reload();
  await expect(settings.firstName).toHaveValue('Morgan');
  await expect(settings.lastName).toHaveValue('Lee');
  await expect(settings.email).toHaveValue(email);
  await expect(settings.companyName).toHaveValue('Lee & Partners');
  await expect(settings.jobTitle).toHaveValue('Operations Lead');
  await expect(settings.phoneNumber).toHaveValue('+14155550199');

  // An address another account uses is refused with the server's message.
  const other = await onboardClient(request, 'taken');
  await settings.fillAccount({ email: other.email });
  await settings.saveAccount.click();
  await expectToast(page, 'Update Failed', 'already used by another account');

  await settings.backToDashboard.click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the tab query opens its tab and switching tabs updates it', async ({ page, request }) => {
  await loginAsNewClient(page, request, 'tabs');
  const settings = new SettingsPage(page);
  await settings.open('?tab=security');
  await expect(settings.tab('Security')).toHaveAttribute('aria-selected', 'true');
  await settings.tab('Notifications').click();
  await expect(page).toHaveURL(/\?tab=notifications$/);
  await settings.open('?tab=unknown');
  await expect(settings.tab('Account')).toHaveAttribute('aria-selected', 'true');
});

test('notification preferences are saved on the server', async ({ page, request }) => {
  await loginAsNewClient(page, request, 'notify');
  const settings = new SettingsPage(page);
  await settings.open('?tab=notifications');
  await expect(settings.checkbox('Email notifications')).toBeChecked();
  await expect(settings.checkbox('SMS notifications')).not.toBeChecked();
  await expect(settings.checkbox('Webhook notifications')).toBeChecked();
  await expect(settings.checkbox('Monthly reports')).toBeChecked();
  await screenshotBothWidths(page, 'settings-notifications');

  const alertWindow = page.getByLabel('Alert about calls that ended within');
  await expect(alertWindow).toHaveValue('60');
  await settings.checkbox('Email notifications').click();
  await settings.checkbox('SMS notifications').click();
  await alertWindow.selectOption({ label: '4 hours' });
  await settings.savePreferences.click();
  await expectToast(page, 'Notifications Updated', 'Your notification preferences have been saved.');

  await page.reload();
  await expect(settings.checkbox('Email notifications')).not.toBeChecked();
  await expect(settings.checkbox('SMS notifications')).toBeChecked();
  await expect(settings.checkbox('Monthly reports')).toBeChecked();
  await expect(alertWindow).toHaveValue('240');
});

test('security: rotating the webhook URL asks first, then the old URL is refused', async ({
  page,
  request,
}) => {
  const client = await loginAsNewClient(page, request, 'rotate');
  const settings = new SettingsPage(page);
  await settings.open('?tab=security');
  const urlField = page.getByLabel('Webhook URL');
  await expect(urlField).toHaveValue(client.webhookUrl);

  await page.getByRole('button', { name: 'Rotate Webhook URL' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Rotate Webhook URL' });
  await expect(dialog).toContainText('until you give the call service the new URL');
  await screenshotBothWidths(page, 'settings-rotate-webhook');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(urlField).toHaveValue(client.webhookUrl);

  await page.getByRole('button', { name: 'Rotate Webhook URL' }).click();
  await dialog.getByRole('button', { name: 'Rotate' }).click();
  await expectToast(page, 'Webhook URL Rotated', 'Give the call service the new URL');
  await expect(urlField).not.toHaveValue(client.webhookUrl);
  const rotated = await urlField.inputValue();
  expect(rotated).toMatch(/\/api\/webhooks\/voice\/[\w-]{43}$/);
  expect((await request.post(client.webhookUrl, { data: {} })).status()).toBe(404);
  await page.reload();
  await expect(urlField).toHaveValue(rotated);
});

test('security: change password, API key check, webhook URL copy', async ({ page, request, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL });
  const client = await loginAsNewClient(page, request, 'security');
  const settings = new SettingsPage(page);
  await settings.open('?tab=security');
  await expect(settings.apiKeyStatus).toHaveText('Not Connected');
  await expect(page.getByLabel('Webhook URL')).toHaveValue(client.webhookUrl);
  await screenshotBothWidths(page, 'settings-security');

  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByRole('button', { name: 'Copied!' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(client.webhookUrl);

  // Change password: the dialog's own rules first, then the server's.
  await page.getByRole('button', { name: 'Change Password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change Password' });
  await dialog.getByLabel('Current Password').fill('wrong password');
  await dialog.getByLabel('New Password', { exact: true }).fill('short');
  await dialog.getByLabel('Confirm New Password').fill('different');
  await dialog.getByRole('button', { name: 'Update Password' }).click();
  await expect(dialog.getByText('New password must be at least 10 characters')).toBeVisible();
  await expect(dialog.getByText('Passwords do not match')).toBeVisible();
  await dialog.getByLabel('New Password', { exact: true }).fill('a much longer secret');
  await dialog.getByLabel('Confirm New Password').fill('a much longer secret');
  await dialog.getByRole('button', { name: 'Update Password' }).click();
  await expectToast(page, 'Password Change Failed', 'Current password is incorrect');
  await expect(dialog.getByText('Current password is incorrect')).toBeVisible();
  await screenshotBothWidths(page, 'settings-change-password');
  await dialog.getByLabel('Current Password').fill(client.password);
  await dialog.getByRole('button', { name: 'Update Password' }).click();
  await expectToast(page, 'Password Changed');
  await expect(dialog).toBeHidden();
  const oldLogin = await request.post(`${BASE_URL}/api/client/login`, {
    data: { email: client.email, password: client.password },
  });
  expect(oldLogin.status()).toBe(401);
  const newLogin = await request.post(`${BASE_URL}/api/client/login`, {
    data: { email: client.email, password: 'a much longer secret' },
  });
  expect(newLogin.status()).toBe(200);

  // API key: the agency lets this client manage it (off by default); a key the provider refuses is
  // not saved; one it accepts connects the account.
  await expect(page.getByRole('button', { name: 'Update API Key' })).toBeDisabled();
  expect((await request.post(`${BASE_URL}/api/admin/login`, { data: ADMIN })).status()).toBe(200);
  const listed = (await (await request.get(`${BASE_URL}/api/admin/clients`)).json()) as {
    id: string;
    email: string;
  }[];
  const configId = listed.find((c) => c.email === client.email)?.id;
  const allowed = await request.put(`${BASE_URL}/api/admin/client-config/${configId}`, {
    data: { clientManagesApiKey: true },
  });
  expect(allowed.status()).toBe(200);
  await page.reload();
  await page.getByRole('button', { name: 'Update API Key' }).click();
  const keyDialog = page.getByRole('dialog', { name: 'Update API Key' });
  await keyDialog.getByLabel('API Key', { exact: true }).fill('sk-not-a-real-key');
  await keyDialog.getByRole('button', { name: 'Save API Key' }).click();
  await expectToast(page, 'API Key Not Saved', 'rejected this API key');
  await expect(settings.apiKeyStatus).toHaveText('Not Connected');
  const goodKey = `sim_e2e_${randomUUID().slice(0, 8)}`;
  await placeTestCall(request, client.webhookUrl, goodKey);
  await keyDialog.getByLabel('API Key', { exact: true }).fill(goodKey);
  await keyDialog.getByRole('button', { name: 'Save API Key' }).click();
  await expectToast(page, 'API Key Updated');
  await expect(settings.apiKeyStatus).toHaveText('Connected');
  await page.reload();
  await expect(settings.apiKeyStatus).toHaveText('Connected');
});

test('subscription tab: usage warning, change plan, new card, and the cancel flow', async ({
  page,
  request,
}) => {
  await useStripeStandIn(page);
  const client = await loginAsNewClient(page, request, 'cancel');
  // 420 of Starter's 500 minutes this month: above the 80% warning line.
  await placeTestCall(request, client.webhookUrl, undefined, {
    corrected_duration: '25200',
    call_length: 420,
  });
  const paid = await page.request.post('/api/client/process-stripe-payment', {
    data: { planId: 'starter', paymentMethodId: 'pm_card_visa' },
  });
  expect(paid.status()).toBe(200);

  const settings = new SettingsPage(page);
  await settings.open('?tab=subscription');
  await expect(settings.currentPlan.getByText('Starter', { exact: true })).toBeVisible();
  await expect(settings.usageBar).toHaveAttribute('aria-valuenow', /^(8[1-9]|9\d|100)$/);
  await expect(page.getByText(/of your monthly minutes/)).toBeVisible();
  await expect(settings.detail('Status')).toHaveText('Active');
  await expect(settings.detail('Auto-renewal')).toHaveText('Enabled');
  await screenshotBothWidths(page, 'settings-subscription-active');

  await settings.changePlanButton.click();
  await expect(settings.planSection).toHaveAttribute('data-highlighted', 'true');
  await expect(settings.planSection).toBeInViewport();

  await settings.updatePaymentButton.click();
  const cardDialog = page.getByRole('dialog', { name: 'Update Payment Method' });
  await cardDialog.getByTestId('stand-in-card-number').fill('5555 5555 5555 4444');
  await cardDialog.getByRole('button', { name: 'Save Card' }).click();
  await expectToast(page, 'Payment Method Updated', 'Mastercard •••• 4444');
  await expect(settings.detail('Payment method')).toHaveText('Mastercard •••• 4444');

  // Saying no in the browser's confirmation changes nothing.
  expect(await settings.cancelSubscription(false)).toBe(
    "Are you sure you want to cancel your subscription? You'll lose access at the end of your current billing period.",
  );
  await expect(settings.cancelButton).toBeVisible();

  await settings.cancelSubscription(true);
  await expectToast(
    page,
    'Subscription Cancelled',
    'Your subscription will be cancelled at the end of the current billing period.',
  );
  await expect(settings.detail('Auto-renewal')).toHaveText('Auto-Renewal Disabled');
  await expect(page.getByText('Your subscription will not renew')).toBeVisible();
  await expect(settings.cancelButton).toBeHidden();
  await page.reload();
  await expect(settings.detail('Auto-renewal')).toHaveText('Auto-Renewal Disabled');
  await expect(settings.cancelButton).toBeHidden();
  await screenshotBothWidths(page, 'settings-subscription-cancelled');
});

test('without a subscription: No Active Subscription and Browse Plans', async ({ page, request }) => {
  await loginAsNewClient(page, request, 'nosub');
  const settings = new SettingsPage(page);
  await settings.open('?tab=subscription');
  await expect(page.getByText('No Active Subscription')).toBeVisible();
  await expect(settings.cancelButton).toBeHidden();
  await page.getByRole('button', { name: 'Browse Plans' }).click();
  await expect(settings.planSection).toHaveAttribute('data-highlighted', 'true');
  await expect(settings.planCards).toHaveCount(4);
  await expect(settings.planSection.getByRole('button', { name: 'Select Plan' })).toHaveCount(4);
  await screenshotBothWidths(page, 'settings-subscription-none');
});

test('security: a webhook signing secret is set, enforced on deliveries, and removed', async ({
  page,
  request,
}) => {
  const client = await loginAsNewClient(page, request, 'signing');
  const settings = new SettingsPage(page);
  await settings.open('?tab=security');
  const status = page.getByTestId('signing-secret-status');
  await expect(status).toHaveText('Not Set');

  await page.getByRole('button', { name: 'Set Signing Secret' }).click();
  const dialog = page.getByRole('dialog', { name: 'Set Signing Secret' });
  await dialog.getByLabel('Signing Secret', { exact: true }).fill('has spaces in it');
  await dialog.getByRole('button', { name: 'Save Secret' }).click();
  await expect(dialog.getByText('The signing secret may only contain printable characters')).toBeVisible();
  await dialog.getByLabel('Signing Secret', { exact: true }).fill('bland-signing-secret-e2e');
  await screenshotBothWidths(page, 'settings-signing-secret');
  await dialog.getByRole('button', { name: 'Save Secret' }).click();
  await expectToast(page, 'Signing Secret Saved');
  await expect(status).toHaveText('Set');

  const unsigned = await request.post(client.webhookUrl, { data: { call_id: 'forged' } });
  expect(unsigned.status()).toBe(401);

  await page.getByRole('button', { name: 'Remove', exact: true }).click();
  await expectToast(page, 'Signing Secret Removed');
  await expect(status).toHaveText('Not Set');
  await expect(page.getByRole('button', { name: 'Set Signing Secret' })).toBeVisible();
});

test('plan change while paying by card: the confirmation shows Stripe’s proration, then Resume', async ({
  page,
  request,
}) => {
  await useStripeStandIn(page);
  await loginAsNewClient(page, request, 'planchange');
  const paid = await page.request.post('/api/client/process-stripe-payment', {
    data: { planId: 'starter', paymentMethodId: 'pm_card_visa' },
  });
  expect(paid.status()).toBe(200);
  const settings = new SettingsPage(page);
  await settings.open('?tab=subscription');
  await expect(settings.currentPlan.getByText('Starter', { exact: true })).toBeVisible();
  // Nothing pending: no Resume button.
  await expect(page.getByRole('button', { name: 'Resume subscription' })).toBeHidden();
  await settings.cancelSubscription(true);
  await expectToast(page, 'Subscription Cancelled');
  await expect(page.getByRole('button', { name: 'Resume subscription' })).toBeVisible();

  // Cancel in the dialog changes nothing.
  await settings.planCard('Business').getByRole('button', { name: 'Select Plan' }).click();
  const business = page.getByRole('dialog', { name: 'Change to Business?' });
  await expect(business.getByTestId('change-plan-charge')).toContainText(
    'will be charged today to Visa •••• 4242',
  );
  await business.getByRole('button', { name: 'Cancel' }).click();
  await expect(business).toBeHidden();
  await expect(page).toHaveURL(/\/settings/);

  // Keyboard: the Select Plan button opens it, Tab reaches Change plan, Escape closes.
  await settings.planCard('Professional').getByRole('button', { name: 'Select Plan' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Change to Professional?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Professional replaces your Starter plan right away');
  const charge = dialog.getByTestId('change-plan-charge');
  await expect(charge).toHaveText(/^\$\d+\.\d\d will be charged today to Visa •••• 4242\.$/);
  const amount = (await dialog.getByTestId('change-plan-amount').textContent()) ?? '';
  // Just subscribed: nearly the whole $100 difference for the month.
  expect(Number(amount.replace(/[$,]/g, ''))).toBeGreaterThan(99);
  expect(Number(amount.replace(/[$,]/g, ''))).toBeLessThanOrEqual(100);
  await expect(dialog).toContainText('$149/month');
  await expect(dialog).toContainText('Auto-renewal stays off');
  await screenshotBothWidths(page, 'settings-change-plan-dialog');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await settings.planCard('Professional').getByRole('button', { name: 'Select Plan' }).click();
  await expect(dialog.getByTestId('change-plan-amount')).toBeVisible();
  const confirm = dialog.getByRole('button', { name: 'Change plan' });
  for (let i = 0; i < 6; i++) {
    if (await confirm.evaluate((el) => el === document.activeElement)) break;
    await page.keyboard.press('Tab');
  }
  await expect(confirm).toBeFocused();
  await page.keyboard.press('Enter');
  await expectToast(
    page,
    'Plan Changed',
    `Your plan is now Professional. ${amount} was charged to Visa •••• 4242.`,
  );
  await expect(dialog).toBeHidden();
  await expect(settings.currentPlan.getByText('Professional', { exact: true })).toBeVisible();
  // The change did not turn auto-renewal back on.
  await expect(settings.detail('Auto-renewal')).toHaveText('Auto-Renewal Disabled');
  await expect(settings.planCard('Professional').getByRole('button', { name: 'Current Plan' })).toBeVisible();

  await page.getByRole('button', { name: 'Resume subscription' }).click();
  await expectToast(page, 'Subscription Resumed', 'Your subscription will renew automatically on');
  await expect(settings.detail('Auto-renewal')).toHaveText('Enabled');
  await expect(page.getByRole('button', { name: 'Resume subscription' })).toBeHidden();
  await expect(settings.cancelButton).toBeVisible();
  await page.reload();
  await expect(settings.detail('Auto-renewal')).toHaveText('Enabled');
  await expect(settings.currentPlan.getByText('Professional', { exact: true })).toBeVisible();
});

test('plan change: 3-D Secure is confirmed with Stripe.js; a declined card changes nothing', async ({
  page,
  request,
}) => {
  await useStripeStandIn(page);
  await loginAsNewClient(page, request, 'plan3ds');
  const paid = await page.request.post('/api/client/process-stripe-payment', {
    data: { planId: 'starter', paymentMethodId: 'pm_card_visa' },
  });
  expect(paid.status()).toBe(200);
  // The saved card now asks for 3-D Secure on every charge.
  const replaced = await page.request.put('/api/client/payment-method', {
    data: { paymentMethodId: 'pm_card_authenticationRequired' },
  });
  expect(replaced.status()).toBe(200);

  const settings = new SettingsPage(page);
  await settings.open('?tab=subscription');
  await settings.planCard('Business').getByRole('button', { name: 'Select Plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change to Business?' });
  await expect(dialog.getByTestId('change-plan-charge')).toContainText('to Visa •••• 3184');
  await expect(dialog).not.toContainText('Auto-renewal stays off');
  await dialog.getByRole('button', { name: 'Change plan' }).click();
  await expectToast(page, 'Plan Changed', 'Your plan is now Business.');
  await expect(settings.currentPlan.getByText('Business', { exact: true })).toBeVisible();
  expect(
    await page.evaluate(() =>
      (
        window as unknown as { __STRIPE_STAND_IN__: { calls: { method: string }[] } }
      ).__STRIPE_STAND_IN__.calls.map((c) => c.method),
    ),
  ).toContain('confirmCardPayment');

  const failing = await page.request.put('/api/client/payment-method', {
    data: { paymentMethodId: 'pm_card_chargeCustomerFail' },
  });
  expect(failing.status()).toBe(200);
  await page.reload();
  await settings.planCard('Enterprise').getByRole('button', { name: 'Select Plan' }).click();
  const enterprise = page.getByRole('dialog', { name: 'Change to Enterprise?' });
  await expect(enterprise.getByTestId('change-plan-charge')).toContainText('•••• 0341');
  await enterprise.getByRole('button', { name: 'Change plan' }).click();
  await expectToast(page, 'Plan Change Failed', /declined/i);
  await expect(enterprise).toBeVisible();
  await enterprise.getByRole('button', { name: 'Cancel' }).click();
  await expect(settings.currentPlan.getByText('Business', { exact: true })).toBeVisible();
});

test('PayPal with a pending cancellation: no Resume, Select Plan still goes to checkout', async ({
  page,
  request,
}) => {
  await loginAsNewClient(page, request, 'ppresume');
  const checkout = new CheckoutPage(page);
  await checkout.open('starter');
  await checkout.paypalTab.click();
  await checkout.payByPaypalButton('49').click();
  await page.locator('#approve').click();
  await expect(page).toHaveURL(/\/settings\?tab=subscription&success=true$/);
  const settings = new SettingsPage(page);
  await expect(settings.detail('Payment method')).toHaveText('PayPal');
  await settings.cancelSubscription(true);
  await expectToast(page, 'Subscription Cancelled');
  await expect(page.getByText('PayPal subscriptions cannot be resumed')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Resume subscription' })).toBeHidden();
  const resume = await page.request.post('/api/client/subscription/resume');
  expect(resume.status()).toBe(409);
  await screenshotBothWidths(page, 'settings-subscription-paypal-cancelled');
  await settings.currentPlan.getByRole('button', { name: 'Browse Plans' }).click();
  await expect(settings.planSection).toHaveAttribute('data-highlighted', 'true');
  await settings.planCard('Business').getByRole('button', { name: 'Select Plan' }).click();
  await expect(page).toHaveURL(/\/checkout\?plan=business$/);
  await expect(page.getByRole('dialog')).toBeHidden();
});
