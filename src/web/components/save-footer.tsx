/**
 * How a settings card saves (Settings, the privacy cards the admin shares): one right-aligned
 * button (full width on a phone), "Saving..." while it runs.
 */
import { Save } from 'lucide-react';
import type { ComponentProps } from 'react';
import { PendingButton } from './pending-button';
import type { Button } from './ui/button';

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
