/**
 * The workspace's two tabs (Calls, Quality) as plain WAI-ARIA tabs, drawn as `ui/tabs.tsx` draws
 * Radix's: the same classes and data-state. Radix's Tabs measured the panel's computed style on
 * mount (Presence) and registered each trigger in a roving-focus collection, forced style work
 * in the dashboards' first long task on a slowed phone. Keyboard as Radix's (automatic
 * activation): the selected tab alone is in the tab order, the arrow keys, Home and End move to a
 * tab and select it; only the selected panel is rendered, focusable as Radix's is.
 */
import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';
import { cn } from '../../lib/utils';

export interface WorkspaceTab<T extends string> {
  value: T;
  label: ReactNode;
}

export interface WorkspaceTabsProps<T extends string> {
  tabs: WorkspaceTab<T>[];
  value: T;
  onValueChange: (value: T) => void;
  /** The tab list's accessible name. */
  label: string;
  listClassName?: string;
  triggerClassName?: string;
  /** The selected tab's panel. */
  children: ReactNode;
  panelClassName?: string;
  className?: string;
}

const LIST =
  'inline-flex h-9 max-sm:h-auto w-fit items-center justify-center rounded-lg bg-muted p-[3px] text-muted-foreground';
const TRIGGER =
  "inline-flex h-[calc(100%-1px)] max-sm:min-h-11 flex-1 items-center justify-center gap-1.5 whitespace-nowrap rounded-md border border-transparent px-2 py-1 font-medium text-foreground text-sm transition-[color,box-shadow] focus-visible:outline-1 focus-visible:outline-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:pointer-events-none disabled:opacity-50 data-[state=active]:bg-card data-[state=active]:shadow-sm [&_svg:not([class*='size-'])]:size-4 [&_svg]:pointer-events-none [&_svg]:shrink-0";

/** The tab a key moves to from `index` among `count` (wrapping, as Radix's), or null for another key. */
export function tabAfterKey(key: string, index: number, count: number): number | null {
  const last = count - 1;
  if (key === 'ArrowRight') return index === last ? 0 : index + 1;
  if (key === 'ArrowLeft') return index === 0 ? last : index - 1;
  if (key === 'Home') return 0;
  if (key === 'End') return last;
  return null;
}

export function WorkspaceTabs<T extends string>({
  tabs,
  value,
  onValueChange,
  label,
  listClassName,
  triggerClassName,
  children,
  panelClassName,
  className,
}: WorkspaceTabsProps<T>) {
  const id = useId();
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const tabId = (v: string) => `${id}-tab-${v}`;
  const panelId = (v: string) => `${id}-panel-${v}`;
  const onKeyDown = (e: KeyboardEvent, index: number) => {
    const next = tabAfterKey(e.key, index, tabs.length);
    if (next === null) return;
    e.preventDefault();
    buttons.current[next]?.focus();
    onValueChange(tabs[next].value);
  };
  return (
    <div data-slot="tabs" data-orientation="horizontal" className={cn('flex flex-col gap-2', className)}>
      <div
        role="tablist"
        aria-label={label}
        aria-orientation="horizontal"
        data-slot="tabs-list"
        data-testid="workspace-views"
        data-orientation="horizontal"
        className={cn(LIST, listClassName)}
      >
        {tabs.map((tab, index) => {
          const selected = tab.value === value;
          return (
            <button
              key={tab.value}
              ref={(el) => {
                buttons.current[index] = el;
              }}
              type="button"
              role="tab"
              id={tabId(tab.value)}
              aria-selected={selected}
              aria-controls={panelId(tab.value)}
              tabIndex={selected ? 0 : -1}
              data-state={selected ? 'active' : 'inactive'}
              data-orientation="horizontal"
              data-slot="tabs-trigger"
              className={cn(TRIGGER, triggerClassName)}
              onClick={() => {
                if (!selected) onValueChange(tab.value);
              }}
              onKeyDown={(e) => onKeyDown(e, index)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div
        key={value}
        role="tabpanel"
        id={panelId(value)}
        aria-labelledby={tabId(value)}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a tab panel is focusable (WAI-ARIA tabs), as Radix's was
        tabIndex={0}
        data-state="active"
        data-orientation="horizontal"
        data-slot="tabs-content"
        className={cn('flex-1 outline-none', panelClassName)}
      >
        {children}
      </div>
    </div>
  );
}
