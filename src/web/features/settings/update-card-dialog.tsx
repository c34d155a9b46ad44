/**
 * Update Payment Method (DESIGN §6 [3]): a Stripe card form whose card replaces the subscription's
 * default payment method. The form, and Stripe with it, loads only when the dialog opens.
 */
import { lazy, Suspense, useState } from 'react';
import type { Subscription } from '../../../contract/billing';
import { Skeleton } from '../../components/ui/skeleton';
import { useBillingConfig } from '../../lib/billing-queries';
import { SettingsDialog } from './settings-dialog';

const UpdateCardForm = lazy(() => import('./update-card-form'));

export function UpdateCardDialog({ subscription }: { subscription: Subscription }) {
  const [open, setOpen] = useState(false);
  const config = useBillingConfig();
  const paysWithPaypal = subscription.paymentMethod === 'PayPal';
  const publishableKey = config.data?.stripePublishableKey ?? null;

  return (
    <SettingsDialog
      title="Update Payment Method"
      description={
        paysWithPaypal
          ? 'Your subscription is paid through PayPal. Manage the funding source in your PayPal account, or choose a plan below and pay by card to switch.'
          : `The new card replaces ${subscription.paymentMethod ?? 'your current card'} for all future payments.`
      }
      open={open}
      onOpenChange={setOpen}
    >
      {paysWithPaypal ? null : config.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : publishableKey ? (
        <Suspense fallback={<Skeleton className="h-24 w-full" />}>
          <UpdateCardForm publishableKey={publishableKey} onDone={() => setOpen(false)} />
        </Suspense>
      ) : (
        <p
          role="status"
          className="rounded-md border border-dashed bg-muted/50 p-4 text-muted-foreground text-sm"
        >
          Card payments are not set up on this server.
        </p>
      )}
    </SettingsDialog>
  );
}
