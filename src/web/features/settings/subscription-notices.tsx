/**
 * What the Subscription tab says above the plan (SPEC §4): the outcome of a checkout or a PayPal
 * return, a renewal waiting for the bank's confirmation, and the amber or blue notice both this
 * banner and the plan card use.
 */
import { AlertTriangle, CheckCircle2, Info } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import type { Subscription } from '../../../contract/billing';
import { PendingButton } from '../../components/pending-button';
import { serverMessageOf } from '../../lib/api';
import { formatBillingDate } from '../../lib/billing-format';
import { toast } from '../../lib/use-toast';
import { useConfirmRenewal } from './mutations';

export function OutcomeBanner({
  success,
  paypal,
  subscription,
  loading,
}: {
  success: boolean;
  paypal: string | null;
  subscription: Subscription | null;
  loading: boolean;
}) {
  if (loading || (!success && !paypal)) return null;
  if (subscription?.status === 'active' && (success || paypal === 'pending')) {
    return (
      <div
        role="status"
        className="flex items-start gap-3 rounded-lg border border-success/40 bg-success/10 p-4 text-sm"
      >
        <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-success" aria-hidden="true" />
        <div>
          <p className="font-semibold">Subscription active</p>
          <p className="text-muted-foreground">
            Thank you! You are subscribed to {subscription.plan.name}. Your next billing date is{' '}
            {formatBillingDate(subscription.currentPeriodEnd)}.
          </p>
        </div>
      </div>
    );
  }
  if (paypal === 'error') {
    return (
      <Notice tone="amber" title="PayPal could not confirm your subscription">
        Nothing was activated. If PayPal charged you, it will show here within a few minutes; otherwise please
        try again.
      </Notice>
    );
  }
  return (
    <Notice tone="info" title="Confirming your payment">
      Your payment is being confirmed. This page updates as soon as your subscription is active.
    </Notice>
  );
}

export function Notice({
  tone,
  title,
  children,
}: {
  tone: 'amber' | 'info';
  title: string;
  children: ReactNode;
}) {
  const Icon = tone === 'amber' ? AlertTriangle : Info;
  return (
    <div
      role="status"
      className={
        tone === 'amber'
          ? 'flex items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-900 text-sm dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100'
          : 'flex items-start gap-3 rounded-lg border bg-accent/60 p-4 text-sm'
      }
    >
      <Icon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
      <div>
        <p className="font-semibold">{title}</p>
        <p className="opacity-90">{children}</p>
      </div>
    </div>
  );
}

/** Stripe.js's refusal of the 3-D Secure step, in Stripe's words. */
class AuthenticationError extends Error {}

/**
 * A renewal the bank wants the client to confirm (3-D Secure on an off-session charge): the
 * button opens the bank's check through Stripe.js (loaded only now), then the server asks Stripe
 * whether the invoice is paid.
 */
export function RenewalActionNotice({ publishableKey }: { publishableKey: string | null }) {
  const confirm = useConfirmRenewal();
  const [failure, setFailure] = useState<string | null>(null);

  function run() {
    if (!publishableKey) return;
    setFailure(null);
    confirm.mutate(
      async (clientSecret) => {
        const { getStripe } = await import('../../components/stripe-card');
        const stripe = await getStripe(publishableKey);
        if (!stripe) throw new AuthenticationError('Stripe could not be loaded. Please try again.');
        const result = await stripe.confirmCardPayment(clientSecret);
        if (result.error)
          throw new AuthenticationError(result.error.message ?? 'The payment was not confirmed.');
      },
      {
        onSuccess: () =>
          toast({
            title: 'Payment Confirmed',
            description: 'Your subscription is paid and renews as usual.',
          }),
        onError: (error) =>
          setFailure(
            error instanceof AuthenticationError
              ? error.message
              : serverMessageOf(error, 'Please try again.'),
          ),
      },
    );
  }

  return (
    <section
      aria-label="Payment needs your confirmation"
      className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-900 text-sm sm:flex-row sm:items-center dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <AlertTriangle className="size-5 shrink-0" aria-hidden="true" />
      <div className="grow">
        <p className="font-semibold">Your bank asks you to confirm this month’s payment</p>
        <p className="opacity-90">
          Your subscription renewal is waiting for your confirmation. Until it is confirmed, your subscription
          is past due.
        </p>
        {failure && (
          <p role="alert" className="mt-1 font-medium">
            {failure}
          </p>
        )}
      </div>
      <PendingButton
        onClick={run}
        disabled={!publishableKey}
        pending={confirm.isPending}
        pendingLabel="Confirming..."
      >
        Confirm payment
      </PendingButton>
    </section>
  );
}
