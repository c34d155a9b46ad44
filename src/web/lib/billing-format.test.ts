import { describe, expect, it } from 'vitest';
import {
  formatBillingDate,
  formatPlanPrice,
  subscriptionStatusLabel,
  subscriptionStatusVariant,
} from './billing-format';

describe('billing display rules', () => {
  it('prints plan prices without needless decimals', () => {
    expect(formatPlanPrice(49)).toBe('49');
    expect(formatPlanPrice(50.5)).toBe('50.50');
    expect(formatPlanPrice(999.99)).toBe('999.99');
  });

  it('labels statuses and picks the primary badge for active only', () => {
    expect(subscriptionStatusLabel('past_due')).toBe('Past Due');
    expect(subscriptionStatusLabel('active')).toBe('Active');
    expect(subscriptionStatusVariant('active')).toBe('default');
    expect(subscriptionStatusVariant('past_due')).toBe('secondary');
    expect(subscriptionStatusVariant('canceled')).toBe('secondary');
  });

  it('formats billing dates as long US dates', () => {
    expect(formatBillingDate('2026-03-05T12:00:00.000Z')).toBe('March 5, 2026');
    expect(formatBillingDate(null)).toBe('—');
    expect(formatBillingDate('nonsense')).toBe('—');
  });
});

describe('usage rules (SPEC §5, §9)', () => {
  it('caps the bar at 100 and warns above 80%', async () => {
    const { isUsageWarning, usagePercent } = await import('../../contract/billing');
    expect(usagePercent(250, 500)).toBe(50);
    expect(usagePercent(900, 500)).toBe(100);
    expect(usagePercent(0, 0)).toBe(0);
    expect(isUsageWarning(400, 500)).toBe(false);
    expect(isUsageWarning(401, 500)).toBe(true);
  });

  it('labels cards the way the subscription shows them', async () => {
    const { cardLabel } = await import('../../contract/billing');
    expect(cardLabel('visa', '4242')).toBe('Visa •••• 4242');
    expect(cardLabel('amex', '0005')).toBe('American Express •••• 0005');
    expect(cardLabel('newbrand', '1111')).toBe('Newbrand •••• 1111');
    expect(cardLabel(null, null)).toBeNull();
  });
});

describe('plan change display rules', () => {
  it('prints charges with cents and thousands', async () => {
    const { formatMoney } = await import('./billing-format');
    expect(formatMoney(12.3)).toBe('$12.30');
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(1234.5)).toBe('$1,234.50');
  });

  it('changes active card subscriptions in place; PayPal and none go to checkout', async () => {
    const { changesInPlace } = await import('./billing-format');
    expect(changesInPlace({ status: 'active', paymentMethod: 'Visa •••• 4242' })).toBe(true);
    expect(changesInPlace({ status: 'active', paymentMethod: 'PayPal' })).toBe(false);
    expect(changesInPlace({ status: 'past_due', paymentMethod: 'Visa •••• 4242' })).toBe(false);
    expect(changesInPlace(null)).toBe(false);
  });
});
