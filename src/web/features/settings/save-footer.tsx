/** How a settings card saves: one right-aligned button (full width on a phone), "Saving..." while it runs. */
import { Save } from 'lucide-react';
import type { ComponentProps } from 'react';
import { PendingButton } from '../../components/pending-button';
import type { Button } from '../../components/ui/button';

interface SaveFooterProps extends ComponentProps<typeof Button> {
  label: string;
  pending: boolean;
}

export function SaveFooter({ label, pending, ...button }: SaveFooterProps) {
  return (
    <div className="flex justify-end">
      <PendingButton
        pending={pending}
        pendingLabel="Saving..."
        icon={<Save aria-hidden="true" />}
        className="w-full sm:w-auto"
        {...button}
      >
        {label}
      </PendingButton>
    </div>
  );
}
