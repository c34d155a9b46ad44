/**
 * Page model of /checkout, and the stand-in Stripe.js: every request to js.stripe.com is answered
 * with tests/e2e/fixtures/stripe-js.js, which talks to the Stripe stand-in named in
 * window.__STRIPE_SIM_URL__.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Locator, type Page } from '@playwright/test';
import { STRIPE_SIM_URL } from '../support/env';

const STRIPE_JS = readFileSync(
  path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../sim/stripe/stripe-js.js'),
  'utf8',
);

export async function useStripeStandIn(page: Page) {
  await page.addInitScript((url) => {
    (window as unknown as { __STRIPE_SIM_URL__: string }).__STRIPE_SIM_URL__ = url;
  }, STRIPE_SIM_URL);
  await page.route('https://js.stripe.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'application/javascript', body: STRIPE_JS }),
  );
}

export class CheckoutPage {
  readonly title: Locator;
  readonly backToSettings: Locator;
  readonly cardTab: Locator;
  readonly paypalTab: Locator;
  readonly cardNumber: Locator;

  constructor(readonly page: Page) {
    this.title = page.getByText(/^Subscribe to /);
    this.backToSettings = page.getByRole('button', { name: 'Back to Settings' });
    this.cardTab = page.getByRole('tab', { name: 'Card' });
    this.paypalTab = page.getByRole('tab', { name: 'PayPal' });
    this.cardNumber = page.getByTestId('stand-in-card-number');
  }

  async open(planId: string) {
    await this.page.goto(`/checkout?plan=${planId}`);
    await expect(this.title).toBeVisible();
  }

  payByCardButton(price: string): Locator {
    return this.page.getByRole('button', { name: `Pay $${price}/month with Stripe` });
  }

  payByPaypalButton(price: string): Locator {
    return this.page.getByRole('button', { name: `Pay $${price}/month with PayPal` });
  }

  async enterCard(number: string) {
    await this.cardNumber.fill(number);
  }

  /** The calls the stand-in Stripe.js recorded (createPaymentMethod, confirmCardPayment, …). */
  async stripeCalls(): Promise<string[]> {
    return this.page.evaluate(() =>
      (
        (window as unknown as { __STRIPE_STAND_IN__?: { calls: { method: string }[] } }).__STRIPE_STAND_IN__
          ?.calls ?? []
      ).map((c) => c.method),
    );
  }
}
