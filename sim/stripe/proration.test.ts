/**
 * The stand-in's proration, by hand-worked figures (Stripe's documented method: unused time on the
 * old price credited, remaining time on the new one charged, by the second, each line rounded),
 * then through the stand-in's HTTP API with the real SDK: the preview is what the update bills.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StripeSim, startStripeSim } from './index';
import { prorate } from './proration';

const DAY = 86_400;

describe('prorate', () => {
  const start = 1_767_225_600; // 2026-01-01T00:00:00Z
  const end = start + 30 * DAY;

  it('credits the unused old price and charges the remaining new price', () => {
    // 10 of 30 days used: 20/30 of each price.
    expect(
      prorate({
        oldAmount: 4900,
        newAmount: 14900,
        periodStart: start,
        periodEnd: end,
        at: start + 10 * DAY,
      }),
    ).toEqual({ credit: -3267, debit: 9933, remaining: 20 * DAY });
  });

  it('works by the second and rounds each line on its own', () => {
    // One second in: 2591999/2592000 of each amount.
    expect(
      prorate({ oldAmount: 999, newAmount: 1001, periodStart: start, periodEnd: end, at: start + 1 }),
    ).toEqual({ credit: -999, debit: 1001, remaining: 30 * DAY - 1 });
    // Half a day before the end: 1/60 of each amount ($49 → 81.67¢ → 82¢).
    expect(
      prorate({ oldAmount: 4900, newAmount: 39900, periodStart: start, periodEnd: end, at: end - DAY / 2 }),
    ).toEqual({ credit: -82, debit: 665, remaining: DAY / 2 });
  });

  it('credits more than it charges on a downgrade', () => {
    const { credit, debit } = prorate({
      oldAmount: 39900,
      newAmount: 4900,
      periodStart: start,
      periodEnd: end,
      at: start + 15 * DAY,
    });
    expect([credit, debit, credit + debit]).toEqual([-19950, 2450, -17500]);
  });

  it('refuses a date outside the period', () => {
    const base = { oldAmount: 100, newAmount: 200, periodStart: start, periodEnd: end };
    expect(() => prorate({ ...base, at: start - 1 })).toThrow(RangeError);
    expect(() => prorate({ ...base, at: end })).toThrow(RangeError);
    expect(prorate({ ...base, at: start })).toEqual({ credit: -100, debit: 200, remaining: 30 * DAY });
  });
});

describe('invoice preview and update through the API', () => {
  let sim: StripeSim;
  let stripe: Stripe;
  let clock = Date.UTC(2026, 0, 1) + 0;
  beforeAll(async () => {
    sim = await startStripeSim({ secretKey: 'sk_test_unit', now: () => clock });
    const url = new URL(sim.url);
    stripe = new Stripe('sk_test_unit', {
      host: url.hostname,
      port: Number(url.port),
      protocol: 'http',
      maxNetworkRetries: 0,
    });
  });
  afterAll(() => sim?.close());

  async function price(cents: number) {
    return stripe.prices.create({
      currency: 'usd',
      unit_amount: cents,
      recurring: { interval: 'month' },
      product_data: { name: `Plan ${cents}` },
    });
  }

  it('bills at the update exactly what the preview showed for the same proration date', async () => {
    const [small, big] = [await price(4900), await price(14900)];
    const customer = await stripe.customers.create({ email: 'p@example.com' });
    const pm = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: small.id }],
      default_payment_method: pm.id,
    });
    const item = sub.items.data[0];
    // January has 31 days; change 10 days in, then let time pass before confirming.
    clock += 10 * DAY * 1000;
    const prorationDate = Math.floor(clock / 1000);
    const preview = await stripe.invoices.createPreview({
      customer: customer.id,
      subscription: sub.id,
      subscription_details: {
        items: [{ id: item.id, price: big.id }],
        proration_behavior: 'always_invoice',
        proration_date: prorationDate,
      },
    });
    // 21 of 31 days left.
    expect(preview.lines.data.map((l) => l.amount)).toEqual([-3319, 10094]);
    expect(preview).toMatchObject({ total: 6775, amount_due: 6775, status: 'draft' });
    expect(preview.lines.data.every((l) => l.parent?.subscription_item_details?.proration)).toBe(true);
    expect(preview.parent?.subscription_details?.subscription_proration_date).toBe(prorationDate);

    clock += 120_000;
    const updated = await stripe.subscriptions.update(sub.id, {
      items: [{ id: item.id, price: big.id }],
      proration_behavior: 'always_invoice',
      proration_date: prorationDate,
      payment_behavior: 'pending_if_incomplete',
      expand: ['latest_invoice'],
    });
    const invoice = updated.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({
      status: 'paid',
      amount_paid: 6775,
      billing_reason: 'subscription_update',
    });
    expect(updated.items.data[0].price.id).toBe(big.id);
    expect(updated.pending_update).toBeNull();
    expect(updated.items.data[0].current_period_end).toBe(item.current_period_end);
  });

  it('refuses a proration date outside the current period', async () => {
    const [small, big] = [await price(1000), await price(2000)];
    const customer = await stripe.customers.create({ email: 'q@example.com' });
    const pm = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: small.id }],
      default_payment_method: pm.id,
    });
    await expect(
      stripe.invoices.createPreview({
        customer: customer.id,
        subscription: sub.id,
        subscription_details: {
          items: [{ id: sub.items.data[0].id, price: big.id }],
          proration_behavior: 'always_invoice',
          proration_date: sub.items.data[0].current_period_start - 10,
        },
      }),
    ).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      param: 'subscription_details[proration_date]',
    });
  });
});
