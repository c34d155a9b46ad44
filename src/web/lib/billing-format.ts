/** How plans and subscriptions read on the settings and checkout pages (pure, tested). */

/** A plan price in dollars as the checkout button shows it: 49 → "49", 50.5 → "50.50". */
export function formatPlanPrice(dollars: number): string {
  if (!Number.isFinite(dollars)) return '0';
  return Number.isInteger(dollars) ? String(dollars) : dollars.toFixed(2);
}

/** "active" → "Active", "past_due" → "Past Due". */
export function subscriptionStatusLabel(status: string): string {
  return status
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join(' ');
}

/** SPEC §4: "active" is the primary badge, every other status the secondary one. */
export function subscriptionStatusVariant(status: string): 'default' | 'secondary' {
  return status === 'active' ? 'default' : 'secondary';
}

const longDate = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' });

/** An ISO instant as "March 5, 2026" in the viewer's time zone; "—" when there is none. */
export function formatBillingDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : longDate.format(date);
}

/** An amount in dollars with cents, as a charge reads: 12.3 → "$12.30", 1234.5 → "$1,234.50". */
export function formatMoney(dollars: number, currency = 'usd'): string {
  const value = Number.isFinite(dollars) ? dollars : 0;
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(
    value,
  );
}

/**
 * Whether choosing another plan can change the current subscription in place (a card subscription
 * that is active) rather than buy one at checkout. The server has the last word (409 → checkout).
 */
export function changesInPlace(
  subscription: { status: string; paymentMethod: string | null } | null | undefined,
): boolean {
  return !!subscription && subscription.status === 'active' && subscription.paymentMethod !== 'PayPal';
}
