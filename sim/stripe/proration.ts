/**
 * Stripe's proration arithmetic (classic billing mode), by the second: moving an item from one
 * price to another at `at` credits the unused part of the old price and charges the remaining part
 * of the new one, both over the item's current period, each line rounded to the nearest cent.
 * https://docs.stripe.com/billing/subscriptions/prorations
 */
export interface ProrationInput {
  /** Old and new amount for the whole period, in the smallest currency unit (price × quantity). */
  oldAmount: number;
  newAmount: number;
  periodStart: number;
  periodEnd: number;
  /** The proration date (epoch seconds), inside [periodStart, periodEnd). */
  at: number;
}

export interface Proration {
  /** Negative: unused time on the old price. */
  credit: number;
  /** Positive: remaining time on the new price. */
  debit: number;
  /** Seconds left in the period at the proration date. */
  remaining: number;
}

export function prorate({ oldAmount, newAmount, periodStart, periodEnd, at }: ProrationInput): Proration {
  const length = periodEnd - periodStart;
  if (length <= 0) throw new RangeError('The period must have a positive length');
  if (at < periodStart || at >= periodEnd)
    throw new RangeError('The proration date must be inside the period');
  const remaining = periodEnd - at;
  const credit = -Math.round((oldAmount * remaining) / length);
  const debit = Math.round((newAmount * remaining) / length);
  // -0 reads badly in JSON and in tests.
  return { credit: credit === 0 ? 0 : credit, debit, remaining };
}
