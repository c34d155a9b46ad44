/** What every successful checkout does (SPEC §4, §8): toast, fresh billing data, the subscription tab. */
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { type Plan, subscribedMessage } from '../../../contract/billing';
import { ApiError } from '../../lib/api';
import { billingKeys } from '../../lib/billing-queries';
import { toast } from '../../lib/use-toast';

export const SUBSCRIPTION_SUCCESS_URL = '/settings?tab=subscription&success=true';

export function useCheckoutSuccess(plan: Plan) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return () => {
    toast({ title: 'Payment Successful', description: subscribedMessage(plan.name) });
    void queryClient.invalidateQueries({ queryKey: billingKeys.all });
    navigate(SUBSCRIPTION_SUCCESS_URL);
  };
}

/** Paid, not yet active at Stripe: the subscription tab shows "Confirming your payment" and waits. */
export function useCheckoutConfirming() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return () => {
    toast({ title: 'Payment confirmed', description: 'Your subscription is being activated.' });
    void queryClient.invalidateQueries({ queryKey: billingKeys.all });
    navigate(SUBSCRIPTION_SUCCESS_URL);
  };
}

export function paymentFailedToast(description: string) {
  toast({ title: 'Payment Failed', description, variant: 'destructive' });
}

/**
 * SPEC §8 "Checkout": the server's message, else "Payment processing failed" when the server
 * answered; "An error occurred during payment processing" when it could not be reached at all.
 */
export function cardFailureMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? 'Payment processing failed';
  return 'An error occurred during payment processing';
}

/** SPEC §8 "Checkout", wallet: the server's message, else the two texts of the spec. */
export function paypalFailureMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? 'PayPal payment initialization failed';
  return 'An error occurred during PayPal payment setup';
}
