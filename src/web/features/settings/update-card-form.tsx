/**
 * The card form of Update Payment Method (lazily loaded with Stripe). The card is saved through a
 * SetupIntent: Stripe.js confirms it (3-D Secure once if the bank asks), so the renewals that
 * follow are charged without the client.
 */
import { CardElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { type FormEvent, useState } from 'react';
import { PendingButton } from '../../components/pending-button';
import { CardField, StripeProvider } from '../../components/stripe-card';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import { useReplaceCard } from './mutations';

export default function UpdateCardForm({
  publishableKey,
  onDone,
}: {
  publishableKey: string;
  onDone: () => void;
}) {
  return (
    <StripeProvider publishableKey={publishableKey}>
      <UpdateCardInner onDone={onDone} />
    </StripeProvider>
  );
}

/** Stripe.js's refusal (an incomplete number, a failed 3-D Secure), worded by Stripe. */
class CardSetupError extends Error {}

function UpdateCardInner({ onDone }: { onDone: () => void }) {
  const stripe = useStripe();
  const elements = useElements();
  const replace = useReplaceCard();
  const [failure, setFailure] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!stripe || !card || replace.isPending) return;
    setFailure(null);
    replace.mutate(
      async (clientSecret) => {
        const result = await stripe.confirmCardSetup(clientSecret, { payment_method: { card } });
        if (result.error) throw new CardSetupError(result.error.message ?? 'The card could not be saved.');
        return result.setupIntent.id;
      },
      {
        onSuccess: (result) => {
          toast({
            title: 'Payment Method Updated',
            description: `Future payments will use ${result.paymentMethod}.`,
          });
          onDone();
        },
        onError: (error) => {
          if (!(error instanceof CardSetupError))
            return failureToast('Update Failed', error, 'Your card could not be saved.');
          setFailure(error.message);
          toast({ title: 'Update Failed', description: error.message, variant: 'destructive' });
        },
      },
    );
  }

  return (
    <form onSubmit={submit} className="grid gap-4" aria-label="New card">
      <CardField id="update-card" label="New card" disabled={replace.isPending} />
      {failure && (
        <p role="alert" className="text-destructive text-sm">
          {failure}
        </p>
      )}
      <p className="text-muted-foreground text-xs">
        Your bank may ask you to confirm the card once, so renewals go through without you.
      </p>
      <PendingButton type="submit" disabled={!stripe} pending={replace.isPending} pendingLabel="Saving...">
        Save Card
      </PendingButton>
    </form>
  );
}
