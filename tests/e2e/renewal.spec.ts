/**
 * Off-session renewals in Chromium (defect 4): a new card is saved through a
 * SetupIntent (3-D Secure once), and a renewal the bank wants confirmed shows a banner on the
 * dashboard and is completed on the Subscription tab with Stripe.js. The Stripe stand-in renews
 * the subscription on request and sends its webhooks to the app, as Stripe would.
 */
import { type APIRequestContext, expect, test } from '@playwright/test';
import { useStripeStandIn } from './pages/checkout-page';
import { loginAsNewClient, SettingsPage } from './pages/settings-page';
import { expectNoSeriousA11yViolations } from './support/axe';
import { STRIPE_SIM_URL } from './support/env';
import { screenshotBothWidths } from './support/screenshots';
import { expectToast } from './support/toast';

/** The stand-in renews the client's subscription now: Stripe charges the card off-session. */
async function renew(request: APIRequestContext, clientId: string) {
  const state = await (await request.get(`${STRIPE_SIM_URL}/_sim/state`)).json();
  const sub = (state.subscriptions as Array<{ id: string; metadata: { clientId?: string } }>).find(
    (s) => s.metadata.clientId === clientId,
  );
  expect(sub).toBeDefined();
  const advanced = await request.post(`${STRIPE_SIM_URL}/_sim/subscriptions/${sub!.id}/advance`);
  expect(advanced.status()).toBe(200);
  await request.post(`${STRIPE_SIM_URL}/_sim/flush`);
  return (await advanced.json()) as { status: string };
}

test('a card saved through 3-D Secure renews by itself; one the bank asks about is confirmed from a banner', async ({
  page,
  request,
}) => {
  await useStripeStandIn(page);
  const client = await loginAsNewClient(page, request, 'renewal');
  const paid = await page.request.post('/api/client/process-stripe-payment', {
    data: { planId: 'starter', paymentMethodId: 'pm_card_visa' },
  });
  expect(paid.status()).toBe(200);

  // The new card asks for 3-D Secure while it is saved, and never again at renewal.
  const settings = new SettingsPage(page);
  await settings.open('?tab=subscription');
  await settings.updatePaymentButton.click();
  const cardDialog = page.getByRole('dialog', { name: 'Update Payment Method' });
  await cardDialog.getByTestId('stand-in-card-number').fill('4000 0025 0000 3155');
  await cardDialog.getByRole('button', { name: 'Save Card' }).click();
  await expectToast(page, 'Payment Method Updated', 'Visa •••• 3155');
  expect((await renew(request, client.id)).status).toBe('active');
  await page.reload();
  await expect(settings.detail('Status')).toHaveText('Active');
  await expect(page.getByRole('region', { name: 'Payment needs your confirmation' })).toHaveCount(0);

  // The same card attached the old way (no SetupIntent): the bank asks at the next renewal.
  const attached = await page.request.put('/api/client/payment-method', {
    data: { paymentMethodId: 'pm_card_authenticationRequiredSetupForOffSession' },
  });
  expect(attached.status()).toBe(200);
  expect((await renew(request, client.id)).status).toBe('past_due');

  await page.goto('/dashboard');
  const banner = page.getByRole('region', { name: 'Payment needs your confirmation' });
  await expect(banner).toBeVisible();
  await screenshotBothWidths(page, 'dashboard-payment-action');
  await banner.getByRole('link', { name: 'Confirm payment' }).click();

  await expect(page).toHaveURL(/\/settings\?tab=subscription/);
  const notice = page.getByRole('region', { name: 'Payment needs your confirmation' });
  await expect(notice).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'subscription tab with a renewal to confirm');
  await screenshotBothWidths(page, 'settings-payment-action');
  await notice.getByRole('button', { name: 'Confirm payment' }).click();
  await expectToast(page, 'Payment Confirmed', 'Your subscription is paid and renews as usual.');
  await expect(notice).toHaveCount(0);
  await expect(settings.detail('Status')).toHaveText('Active');
});
