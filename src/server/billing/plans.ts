/** The plans table: seeded, editable; rows map to the contract's Plan (dollars) here. */
import type { Kysely } from 'kysely';
import { MAX_PLANS_SHOWN, type Plan } from '../../contract/billing';
import type { Database, PlanRow } from '../db/schema';
import type { PaymentGateway, PaymentProvider } from '../providers/payments/types';

export function toPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    name: row.name,
    monthlyPrice: row.monthly_price_cents / 100,
    minutesIncluded: row.minutes_included,
  };
}

/** Active plans in display order, at most MAX_PLANS_SHOWN (SPEC §9). */
export function listActivePlans(db: Kysely<Database>): Promise<PlanRow[]> {
  return db
    .selectFrom('plans')
    .selectAll()
    .where('is_active', '=', 1)
    .orderBy('sort_order')
    .orderBy('monthly_price_cents')
    .limit(MAX_PLANS_SHOWN)
    .execute();
}

/** A plan a client may buy: it exists and is active. */
export function findActivePlan(db: Kysely<Database>, id: string): Promise<PlanRow | undefined> {
  return db
    .selectFrom('plans')
    .selectAll()
    .where('id', '=', id)
    .where('is_active', '=', 1)
    .executeTakeFirst();
}

/** Any plan, active or not: a subscription keeps showing the plan it was bought on. */
export function findPlan(db: Kysely<Database>, id: string): Promise<PlanRow | undefined> {
  return db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Where a plan keeps each provider's id of its monthly price (a Stripe price, a PayPal plan). */
const PROVIDER_PRICE_COLUMN = {
  stripe: 'stripe_price_id',
  paypal: 'paypal_plan_id',
} as const satisfies Record<PaymentProvider, keyof PlanRow>;

/**
 * Makes sure the provider has this plan: its monthly price is made on first use, and re-checked
 * afterwards (a price changed here gets a new one there); its id is kept on the plan.
 */
export async function ensureProviderPrice(
  db: Kysely<Database>,
  gateway: PaymentGateway,
  plan: PlanRow,
): Promise<string> {
  const column = PROVIDER_PRICE_COLUMN[gateway.provider];
  const priceId = await gateway.ensurePlanPrice({
    planId: plan.id,
    name: plan.name,
    monthlyPriceCents: plan.monthly_price_cents,
    existingId: plan[column],
  });
  if (priceId !== plan[column])
    await db.updateTable('plans').set(column, priceId).where('id', '=', plan.id).execute();
  return priceId;
}
