/**
 * A renewal the bank wants the customer to authenticate (3-D Secure on an off-session charge):
 * Stripe's invoice.payment_action_required names the invoice; the client completes it on the
 * Subscription tab, and invoice.paid clears it (defect 4).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('subscriptions').addColumn('action_invoice_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('subscriptions').dropColumn('action_invoice_id').execute();
}
