/**
 * "Rotate Webhook URL": a new address for one that leaked, or that someone who left still holds.
 * The old one stops working at once, so it asks first and says the platform must be given the new
 * address. One button for the client's Security tab and the agency's Edit Client dialog; each
 * passes its own request and how the platform may be named there.
 */
import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { failureToast } from '../lib/failure-toast';
import { toast } from '../lib/use-toast';
import { ConfirmDeleteDialog } from './confirm-delete-dialog';
import { Button } from './ui/button';

interface RotateWebhookUrlProps {
  /** The rotation request (its mutation refreshes whatever shows the URL). */
  rotate: () => Promise<unknown>;
  /** The platform's name where it may be named; null for a client not shown it. */
  platform: string | null;
  size?: 'sm';
}

export function RotateWebhookUrl({ rotate, platform: named, size }: RotateWebhookUrlProps) {
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);
  // Unnamed, the sentences still read: "calls the call service sends to it…".
  const platform = named ?? 'the call service';
  const confirm = async () => {
    setPending(true);
    try {
      await rotate();
      toast({
        title: 'Webhook URL Rotated',
        description: `Give ${platform} the new URL; deliveries to the old one are refused from now on.`,
      });
    } catch (error) {
      failureToast('Failed to rotate the webhook URL', error);
    } finally {
      setPending(false);
      setConfirming(false);
    }
  };
  return (
    <div>
      <Button type="button" variant="outline" size={size} onClick={() => setConfirming(true)}>
        <RefreshCw aria-hidden="true" />
        Rotate Webhook URL
      </Button>
      <ConfirmDeleteDialog
        open={confirming}
        title="Rotate Webhook URL"
        description={`The current URL stops working at once: calls ${platform} sends to it are refused until you give ${platform} the new URL shown here.`}
        pending={pending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void confirm()}
        confirmLabel="Rotate"
        pendingLabel="Rotating..."
      />
    </div>
  );
}
