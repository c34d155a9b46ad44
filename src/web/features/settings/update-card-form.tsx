/** The card form of Update Payment Method (lazily loaded with Stripe). */
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

function UpdateCardInner({ onDone }: { onDone: () => void }) {
  const stripe = useStripe();
  const elements = useElements();
  const replace = useReplaceCard();
  const [creating, setCreating] = useState(false);
  const busy = creating || replace.isPending;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!stripe || !card || busy) return;
    setCreating(true);
    const created = await stripe
      .createPaymentMethod({ type: 'card', card })
      .finally(() => setCreating(false));
    if (created.error) {
      const description = created.error.message ?? 'The card could not be read.';
      toast({ title: 'Update Failed', description, variant: 'destructive' });
      return;
    }
    replace.mutate(created.paymentMethod.id, {
      onSuccess: (result) => {
        toast({
          title: 'Payment Method Updated',
          description: `Future payments will use ${result.paymentMethod}.`,
        });
        onDone();
      },
      onError: (error) => failureToast('Update Failed', error, 'Your card could not be saved.'),
    });
  }

  return (
    <form onSubmit={submit} className="grid gap-4" aria-label="New card">
      <CardField id="update-card" label="New card" disabled={busy} />
      <PendingButton type="submit" disabled={!stripe} pending={busy} pendingLabel="Saving...">
        Save Card
      </PendingButton>
    </form>
  );
}
