/**
 * The delete confirmation of SPEC §8, for a client and for a call. An alert dialog, so a click
 * outside does not close it; while deleting it stays open saying "Deleting..." and the owner
 * closes it when the request is done.
 */
import { type ReactNode, useLayoutEffect, useRef } from 'react';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from './ui/alert-dialog';
import { Button } from './ui/button';

interface ConfirmDeleteDialogProps {
  open: boolean;
  title: string;
  description: ReactNode;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  /** The destructive action's words; deleting by default. */
  confirmLabel?: string;
  pendingLabel?: string;
  /** More than words: what the action will take (a list), between the description and the buttons. */
  children?: ReactNode;
  /** The action waits (for what it will take to be known, say). */
  confirmDisabled?: boolean;
  /**
   * Where focus goes when the dialog closes and the button that opened it is gone (its row was
   * deleted, say). By default focus returns to that button, as Radix does for its own triggers.
   */
  fallbackFocus?: () => HTMLElement | null | undefined;
}

/**
 * The dialog is opened from the owner's state, not by a Radix trigger, so Radix cannot give focus
 * back. The opener is read when the dialog opens: layout effects run before Radix moves focus in.
 */
function useReturnFocus(open: boolean, fallback?: () => HTMLElement | null | undefined) {
  const opener = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (open && document.activeElement instanceof HTMLElement) opener.current = document.activeElement;
  }, [open]);
  return (event: Event) => {
    event.preventDefault();
    const target = opener.current;
    // A frame later the owner has re-rendered: a deleted row's button is no longer in the page.
    requestAnimationFrame(() => (target?.isConnected ? target : fallback?.())?.focus());
  };
}

export function ConfirmDeleteDialog({
  open,
  title,
  description,
  pending,
  onCancel,
  onConfirm,
  confirmLabel = 'Delete',
  pendingLabel = 'Deleting...',
  children,
  confirmDisabled = false,
  fallbackFocus,
}: ConfirmDeleteDialogProps) {
  const returnFocus = useReturnFocus(open, fallbackFocus);
  return (
    <AlertDialog open={open} onOpenChange={(next) => !next && !pending && onCancel()}>
      <AlertDialogContent onCloseAutoFocus={returnFocus}>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {children}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          {/* A plain button, not AlertDialogAction: that one would close the dialog before the delete finishes. */}
          <Button variant="destructive" onClick={onConfirm} disabled={pending || confirmDisabled}>
            {pending ? pendingLabel : confirmLabel}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
