/**
 * A button whose request is running: it shows a spinner and its busy label (SPEC §8
 * "Saving...", "Generating...") and cannot be pressed again until the request settles.
 */
import type { ComponentProps, ReactNode } from 'react';
import { Button } from './ui/button';
import { Spinner } from './ui/spinner';

interface PendingButtonProps extends ComponentProps<typeof Button> {
  pending: boolean;
  pendingLabel: string;
  /** Shown before the label while idle; the spinner takes its place while pending. */
  icon?: ReactNode;
}

export function PendingButton({
  pending,
  pendingLabel,
  icon,
  disabled,
  children,
  ...props
}: PendingButtonProps) {
  return (
    <Button disabled={pending || disabled} {...props}>
      {pending ? <Spinner className="size-4 text-current" /> : icon}
      {pending ? pendingLabel : children}
    </Button>
  );
}
