/**
 * On the dashboard: a renewal is waiting for the bank's confirmation. The client
 * completes it on the Subscription tab, where Stripe.js is loaded; here it is only a pointer.
 */
import { AlertTriangle } from 'lucide-react';
import { Link } from 'wouter';
import { useSubscription } from '../../lib/billing-queries';

export function PaymentActionBanner() {
  const subscription = useSubscription();
  if (!subscription.data?.actionRequired) return null;
  return (
    <section
      aria-label="Payment needs your confirmation"
      className="flex flex-col gap-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-900 text-sm sm:flex-row sm:items-center dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <AlertTriangle className="size-5 shrink-0" aria-hidden="true" />
      <p className="grow">
        <span className="font-semibold">Your bank asks you to confirm this month’s payment.</span> Your
        subscription is past due until you do.
      </p>
      <Link href="/settings?tab=subscription" className="font-semibold underline underline-offset-4">
        Confirm payment
      </Link>
    </section>
  );
}
