/** The wallet tab: the server starts a PayPal subscription and the browser goes to PayPal to approve it. */
import { useMutation } from '@tanstack/react-query';
import { ExternalLink } from 'lucide-react';
import { useState } from 'react';
import type { PaypalPaymentResponse, Plan } from '../../../contract/billing';
import { PendingButton } from '../../components/pending-button';
import { apiJson } from '../../lib/api';
import { formatPlanPrice } from '../../lib/billing-format';
import { paymentFailedToast, paypalFailureMessage } from './checkout-success';

export function PaypalPayment({ plan }: { plan: Plan }) {
  const [redirecting, setRedirecting] = useState(false);
  const start = useMutation({
    mutationFn: () =>
      apiJson<PaypalPaymentResponse>('POST', '/api/client/process-paypal-payment', {
        planId: plan.id,
        amount: plan.monthlyPrice,
      }),
    onSuccess: (result) => {
      if (result?.success && result.paypalUrl) {
        setRedirecting(true);
        window.location.assign(result.paypalUrl);
        return;
      }
      paymentFailedToast(result?.message || 'PayPal payment initialization failed');
    },
    onError: (error) => paymentFailedToast(paypalFailureMessage(error)),
  });
  // Stays "Redirecting..." once PayPal's page is loading: the page is being left.
  const busy = start.isPending || redirecting;

  return (
    <div className="grid gap-4">
      <p className="text-muted-foreground text-sm">
        You will be redirected to PayPal to approve a monthly subscription of $
        {formatPlanPrice(plan.monthlyPrice)}. After approving you come back here and your plan is active right
        away.
      </p>
      <PendingButton
        size="lg"
        className="w-full"
        onClick={() => start.mutate()}
        pending={busy}
        pendingLabel="Redirecting to PayPal..."
        icon={<ExternalLink aria-hidden="true" />}
      >
        {`Pay $${formatPlanPrice(plan.monthlyPrice)}/month with PayPal`}
      </PendingButton>
    </div>
  );
}
