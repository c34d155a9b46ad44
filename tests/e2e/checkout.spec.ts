/**
 * Checkout in Chromium against the Stripe and PayPal stand-ins (SPEC §2 "Checkout", §8, DESIGN §8):
 * card success, 3-D Secure, a declined card, a double click, PayPal approve and cancel, and the
 * plan-loading rules. Each test subscribes a brand-new client.
 */
import { expect, test } from '@playwright/test';
import { CheckoutPage, useStripeStandIn } from './pages/checkout-page';
import { loginAsNewClient, SettingsPage } from './pages/settings-page';
import { STRIPE_SIM_URL } from './support/env';
import { screenshotBothWidths } from './support/screenshots';
import { expectToast } from './support/toast';

test.beforeEach(async ({ page }) => {
  await useStripeStandIn(page);
});

async function stripeSubscriptionsOf(
  request: import('@playwright/test').APIRequestContext,
  clientId: string,
) {
  const state = await (await request.get(`${STRIPE_SIM_URL}/_sim/state`)).json();
  return (state.subscriptions as { metadata: Record<string, string>; status: string }[]).filter(
    (s) => s.metadata.clientId === clientId,
  );
}

test('pays by card from the plan cards and lands on the active subscription', async ({ page, request }) => {
  await loginAsNewClient(page, request, 'card');
  const settings = new SettingsPage(page);
  await settings.open('?tab=subscription');
  await expect(page.getByText('No Active Subscription')).toBeVisible();
  await expect(settings.planCards).toHaveCount(4);
  await settings.planCard('Starter').getByRole('button', { name: 'Select Plan' }).click();

  await expect(page).toHaveURL(/\/checkout\?plan=starter$/);
  const checkout = new CheckoutPage(page);
  await expect(page.getByText('Subscribe to Starter')).toBeVisible();
  await expect(page.getByText('500 minutes included')).toBeVisible();
  await expect(checkout.backToSettings).toBeVisible();
  await expect(checkout.cardNumber).toBeVisible();
  await screenshotBothWidths(page, 'checkout-card');

  await checkout.enterCard('4242 4242 4242 4242');
  await checkout.payByCardButton('49').click();
  await expectToast(page, 'Payment Successful', 'Successfully subscribed to Starter!');
  await expect(page).toHaveURL(/\/settings\?tab=subscription&success=true$/);
  await expect(page.getByText('Subscription active')).toBeVisible();
  await expect(settings.currentPlan.getByText('Starter', { exact: true })).toBeVisible();
  await expect(settings.detail('Payment method')).toHaveText('Visa •••• 4242');
  await expect(settings.detail('Status')).toHaveText('Active');
  await expect(settings.planCard('Starter').getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  await screenshotBothWidths(page, 'settings-subscription-after-checkout');
});

test('confirms a card that needs 3-D Secure with Stripe.js', async ({ page, request }) => {
  await loginAsNewClient(page, request, 'threeds');
  const checkout = new CheckoutPage(page);
  await checkout.open('professional');
  await checkout.enterCard('4000 0027 6000 3184');
  await checkout.payByCardButton('149').click();
  await expectToast(page, 'Payment Successful', 'Successfully subscribed to Professional!');
  await expect(page).toHaveURL(/\/settings\?tab=subscription&success=true$/);
  expect(await checkout.stripeCalls()).toContain('confirmCardPayment');
  const settings = new SettingsPage(page);
  await expect(settings.detail('Payment method')).toHaveText('Visa •••• 3184');
  await expect(settings.detail('Status')).toHaveText('Active');
});

test('a failed 3-D Secure challenge and a declined card show Payment Failed and subscribe nothing', async ({
  page,
  request,
}) => {
  const client = await loginAsNewClient(page, request, 'declined');
  const checkout = new CheckoutPage(page);
  await checkout.open('starter');

  await checkout.enterCard('4000 0000 0000 0002');
  await checkout.payByCardButton('49').click();
  await expectToast(page, 'Payment Failed', 'Your card was declined.');
  await expect(page).toHaveURL(/\/checkout\?plan=starter$/);

  await request.post(`${STRIPE_SIM_URL}/_sim/3ds`, { data: { result: 'fail' } });
  try {
    await checkout.cardNumber.fill('4000 0027 6000 3184');
    await checkout.payByCardButton('49').click();
    await expectToast(page, 'Payment Failed', /failed authentication/i);
  } finally {
    await request.post(`${STRIPE_SIM_URL}/_sim/3ds`, { data: { result: 'succeed' } });
  }
  await expect(page).toHaveURL(/\/checkout\?plan=starter$/);
  const sub = await (await page.request.get('/api/client/subscription')).json();
  expect(sub).toBeNull();
  expect((await stripeSubscriptionsOf(request, client.id)).filter((s) => s.status === 'active')).toHaveLength(
    0,
  );
});

test('a double click on Pay charges once', async ({ page, request }) => {
  const client = await loginAsNewClient(page, request, 'dblclick');
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/client/process-stripe-payment')) posts.push(r.url());
  });
  const checkout = new CheckoutPage(page);
  await checkout.open('business');
  await checkout.enterCard('4242424242424242');
  await checkout.payByCardButton('399').dblclick();
  await expectToast(page, 'Payment Successful', 'Successfully subscribed to Business!');
  await expect(page).toHaveURL(/success=true/);
  expect(posts).toHaveLength(1);
  expect(await stripeSubscriptionsOf(request, client.id)).toHaveLength(1);
});

test('pays with PayPal: approve at PayPal, come back subscribed', async ({ page, request }) => {
  await loginAsNewClient(page, request, 'paypal');
  const checkout = new CheckoutPage(page);
  await checkout.open('professional');
  await checkout.paypalTab.click();
  await expect(page.getByText(/redirected to PayPal/)).toBeVisible();
  await screenshotBothWidths(page, 'checkout-paypal');
  await checkout.payByPaypalButton('149').click();

  await expect(page.locator('#approve')).toBeVisible();
  await expect(page.getByText('149.00 USD / month')).toBeVisible();
  await page.locator('#approve').click();

  await expect(page).toHaveURL(/\/settings\?tab=subscription&success=true$/);
  const settings = new SettingsPage(page);
  await expect(page.getByText('Subscription active')).toBeVisible();
  await expect(settings.detail('Payment method')).toHaveText('PayPal');
  await expect(settings.currentPlan.getByText('Professional', { exact: true })).toBeVisible();
});

test('cancelling at PayPal comes back without a subscription', async ({ page, request }) => {
  await loginAsNewClient(page, request, 'ppcancel');
  const checkout = new CheckoutPage(page);
  await checkout.open('starter');
  await checkout.paypalTab.click();
  await checkout.payByPaypalButton('49').click();
  await page.locator('#cancel').click();
  await expect(page).toHaveURL(/\/settings\?tab=subscription$/);
  await expect(page.getByText('No Active Subscription')).toBeVisible();
});

test('a missing plan goes to settings; an unknown one says it could not load the plan', async ({
  page,
  request,
}) => {
  await loginAsNewClient(page, request, 'noplan');
  await page.goto('/checkout');
  await expect(page).toHaveURL(/\/settings$/);
  await page.goto('/checkout?plan=platinum');
  await expectToast(page, 'Error', 'Failed to load plan details');
  await expect(page).toHaveURL(/\/settings$/);
  await page.goto('/checkout?plan=enterprise');
  await new CheckoutPage(page).backToSettings.click();
  await expect(page).toHaveURL(/\/settings\?tab=subscription$/);
});
