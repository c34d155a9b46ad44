/**
 * The card tab's form (loaded lazily with Stripe): Stripe.js makes the PaymentMethod from the card
 * field, the server subscribes, and a 3-D Secure request is confirmed with Stripe.js before the
 * server is asked again (DESIGN §8). One submit at a time, so a double click pays once.
 */
import { CardElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { Lock } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import type { Plan, StripePaymentResponse } from '../../../contract/billing';
import { PendingButton } from '../../components/pending-button';
import { CardField, StripeProvider } from '../../components/stripe-card';
import { apiJson } from '../../lib/api';
import { formatPlanPrice } from '../../lib/billing-format';
import {
  cardFailureMessage,
  paymentFailedToast,
  useCheckoutConfirming,
  useCheckoutSuccess,
} from './checkout-success';

export default function CardPaymentForm({ publishableKey, plan }: { publishableKey: string; plan: Plan }) {
  return (
    <StripeProvider publishableKey={publishableKey}>
      <CardPaymentInner plan={plan} />
    </StripeProvider>
  );
}

function CardPaymentInner({ plan }: { plan: Plan }) {
  const stripe = useStripe();
  const elements = useElements();
  const [pending, setPending] = useState(false);
  const submitting = useRef(false);
  const succeed = useCheckoutSuccess(plan);
  const confirming = useCheckoutConfirming();

  async function pay(event: FormEvent) {
    event.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!stripe || !card || submitting.current) return;
    submitting.current = true;
    setPending(true);
    try {
      const created = await stripe.createPaymentMethod({ type: 'card', card });
      if (created.error) return paymentFailedToast(created.error.message ?? 'Payment processing failed');

      let result = await apiJson<StripePaymentResponse>('POST', '/api/client/process-stripe-payment', {
        planId: plan.id,
        paymentMethodId: created.paymentMethod.id,
      });
      if (!result.success && 'requiresAction' in result) {
        const confirmed = await stripe.confirmCardPayment(result.clientSecret);
        if (confirmed.error)
          return paymentFailedToast(confirmed.error.message ?? 'Payment processing failed');
        const method = confirmed.paymentIntent?.payment_method;
        result = await apiJson<StripePaymentResponse>('POST', '/api/client/confirm-stripe-payment', {
          planId: plan.id,
          paymentMethodId: typeof method === 'string' ? method : method?.id,
        });
      }
      if (result.success) return succeed();
      // The bank confirmed; Stripe activates the subscription a moment later. The subscription
      // tab says so and waits for it (a second purchase is refused meanwhile).
      if ('pending' in result) return confirming();
      paymentFailedToast(result.message || 'Payment processing failed');
    } catch (error) {
      paymentFailedToast(cardFailureMessage(error));
    } finally {
      submitting.current = false;
      setPending(false);
    }
  }

  return (
    <form onSubmit={pay} className="grid gap-4" aria-label="Card payment">
      <CardField id="checkout-card" label="Card details" disabled={pending} />
      <PendingButton
        type="submit"
        size="lg"
        className="w-full"
        disabled={!stripe}
        pending={pending}
        pendingLabel="Processing..."
        icon={<Lock aria-hidden="true" />}
      >
        {`Pay $${formatPlanPrice(plan.monthlyPrice)}/month with Stripe`}
      </PendingButton>
      <p className="text-center text-muted-foreground text-xs">
        Card details go straight to Stripe; they never touch our servers. Billed monthly, cancel anytime.
      </p>
    </form>
  );
}
