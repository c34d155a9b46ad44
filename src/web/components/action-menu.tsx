/**
 * A menu button (WAI-ARIA "menu button" pattern): one button opening a short list of actions under
 * it, for the places a phone has no room for a row of icons (a call's actions, the dashboard
 * header's account actions). Keyboard as the pattern asks: Enter, Space or the down arrow open it
 * on the first item, the up arrow on the last; the arrows, Home and End move between items; Escape
 * closes it and gives the focus back to the button; Tab, a click outside or choosing an item close
 * it. Every item is at least 44 px high, a finger's width. It owns no data: the caller's items say
 * what each does. Destructive items sit apart at the end, under a rule.
 */
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import { cn } from '../lib/utils';
import { Button } from './ui/button';

interface ActionMenuItemBase {
  label: string;
  icon?: ReactNode;
  disabled?: boolean;
  /** Shown under the rule at the end, in the destructive colour (Delete). */
  destructive?: boolean;
  /** Marks the item for tests and for focus after a delete (`data-delete-call`, say). */
  data?: Record<`data-${string}`, string>;
}

export type ActionMenuItem =
  | (ActionMenuItemBase & { onSelect: () => void; href?: undefined })
  | (ActionMenuItemBase & { href: string; onSelect?: undefined });

export interface ActionMenuProps {
  /** The button's accessible name ("Actions for the call from …", "Account menu"). */
  label: string;
  /** The button's face: an icon, or an icon and a word. */
  trigger: ReactNode;
  items: ActionMenuItem[];
  /** Text above the items, not an item (the signed-in person's address, say). */
  heading?: ReactNode;
  /** Which edge of the button the list lines up with. */
  align?: 'start' | 'end';
  className?: string;
  triggerClassName?: string;
  /** Extra attributes on the trigger (`data-testid`). */
  triggerProps?: Record<`data-${string}`, string>;
}

export function ActionMenu({
  label,
  trigger,
  items,
  heading,
  align = 'end',
  className,
  triggerClassName,
  triggerProps,
}: ActionMenuProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<(HTMLElement | null)[]>([]);
  // Which item takes the focus once the list is drawn: the first, the last, or none (a pointer).
  const [focusOnOpen, setFocusOnOpen] = useState<'first' | 'last' | null>(null);
  const ordered = [...items.filter((i) => !i.destructive), ...items.filter((i) => i.destructive)];
  itemRefs.current.length = ordered.length;

  const enabledIndexes = () => ordered.flatMap((item, i) => (item.disabled ? [] : [i]));
  const focusItem = (index: number | undefined) => {
    if (index !== undefined) itemRefs.current[index]?.focus();
  };

  useEffect(() => {
    if (!open || focusOnOpen === null) return;
    const enabled = itemRefs.current.filter((el) => el && el.getAttribute('aria-disabled') !== 'true');
    (focusOnOpen === 'first' ? enabled[0] : enabled.at(-1))?.focus();
  }, [open, focusOnOpen]);

  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      // A pointer event's target is typed EventTarget; on the page it is a DOM Node
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  const openWith = (focus: 'first' | 'last' | null) => {
    setFocusOnOpen(focus);
    setOpen(true);
  };

  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && open) {
      event.preventDefault();
      close(true);
    } else if (event.key === 'ArrowDown' || event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      openWith('first');
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      openWith('last');
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent) => {
    const enabled = enabledIndexes();
    // activeElement is Element | null; indexOf on the item refs finds only the items
    const current = enabled.indexOf(itemRefs.current.indexOf(document.activeElement as HTMLElement));
    const move: Record<string, number | undefined> = {
      ArrowDown: enabled[(current + 1) % enabled.length],
      ArrowUp: enabled[(current - 1 + enabled.length) % enabled.length],
      Home: enabled[0],
      End: enabled.at(-1),
    };
    if (event.key in move) {
      event.preventDefault();
      focusItem(move[event.key]);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  const firstDestructive = ordered.findIndex((i) => i.destructive);
  return (
    <div ref={root} className={cn('relative inline-flex', className)}>
      <Button
        ref={button}
        type="button"
        variant="ghost"
        size="icon"
        id={`${id}-button`}
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        className={triggerClassName}
        // Focus into the list however it was opened, so Escape and the arrows work from there.
        onClick={() => (open ? close(false) : openWith('first'))}
        onKeyDown={onButtonKeyDown}
        {...triggerProps}
      >
        {trigger}
      </Button>
      {open && (
        <div
          id={`${id}-menu`}
          role="menu"
          aria-labelledby={`${id}-button`}
          tabIndex={-1}
          onKeyDown={onMenuKeyDown}
          className={cn(
            'absolute top-full z-40 mt-1 flex min-w-56 max-w-[calc(100vw-2rem)] flex-col rounded-md border bg-popover p-1 text-popover-foreground shadow-md',
            align === 'end' ? 'right-0' : 'left-0',
          )}
          data-testid="action-menu"
        >
          {heading && (
            <div className="truncate px-3 py-2 text-muted-foreground text-sm" role="presentation">
              {heading}
            </div>
          )}
          {ordered.map((item, index) => {
            const itemClass = cn(
              'flex min-h-11 w-full items-center gap-2 rounded-sm px-3 text-left text-sm outline-none hover:bg-accent focus-visible:bg-accent aria-disabled:pointer-events-none aria-disabled:opacity-50 [&_svg]:size-4 [&_svg]:shrink-0',
              // 700 on the accent surface a focused item has: the destructive colour is under 4.5:1 there.
              item.destructive && 'text-red-700 dark:text-red-400',
            );
            const ref = (el: HTMLElement | null) => {
              itemRefs.current[index] = el;
            };
            const content = (
              <>
                {item.icon}
                {item.label}
              </>
            );
            return (
              <div key={item.label} role="none">
                {index === firstDestructive && index > 0 && <hr className="-mx-1 my-1" />}
                {item.href ? (
                  <Link
                    ref={ref}
                    href={item.href}
                    role="menuitem"
                    tabIndex={-1}
                    className={itemClass}
                    onClick={() => setOpen(false)}
                    {...item.data}
                  >
                    {content}
                  </Link>
                ) : (
                  <button
                    ref={ref}
                    type="button"
                    role="menuitem"
                    tabIndex={-1}
                    aria-disabled={item.disabled || undefined}
                    className={itemClass}
                    onClick={() => {
                      if (item.disabled) return;
                      // The button first: an item opening a dialog moves the focus on from there.
                      close(true);
                      item.onSelect?.();
                    }}
                    {...item.data}
                  >
                    {content}
                  </button>
                )}
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}
