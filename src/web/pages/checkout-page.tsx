/** /checkout?plan={id} (SPEC §2 "Checkout"): the checkout feature for a logged-in client. */
import { RequireClient } from '../features/auth/require-client';
import { CheckoutView } from '../features/checkout/checkout-view';
import { usePageTitle } from '../lib/use-page-title';

export default function CheckoutPage() {
  usePageTitle('Checkout');
  return (
    <RequireClient redirectTo="/client-login">
      <CheckoutView />
    </RequireClient>
  );
}
