/**
 * The Date Range select of a calls view: the view's preset ranges and "Custom range…", which opens
 * the custom range dialog. Under the select, exactly what the window counts (window-label.ts). The filter bar and
 * the Quality tab show the same one, on the same filters in the URL.
 */
import { CalendarRange } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import type { DateRange } from '../../../contract/common';
import { Button } from '../../components/ui/button';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { useHasBeenTrue } from '../../lib/use-has-been-true';
import { rangeLabel } from './custom-range-label';
import { type CallFilters, DATE_RANGE_LABELS, isCustomRange } from './filters';
import { windowLabel } from './window-label';

/** The select's item that opens the custom range dialog. */
// Loaded and mounted once first opened: not on the first screen.
const CustomRangeDialog = lazy(() =>
  import('./custom-range-dialog').then((m) => ({ default: m.CustomRangeDialog })),
);

const CUSTOM = 'custom';

export interface DateRangeSelectProps {
  id: string;
  filters: Pick<CallFilters, 'dateRange' | 'from' | 'to'>;
  dateRanges: readonly DateRange[];
  onChange: (change: Partial<CallFilters>) => void;
  /** The account's time zone, which custom ranges are counted in (shown with them). */
  timeZone?: string;
  /**
   * Say under the select exactly what the window counts (the calls views' rolling presets); off
   * where the view reads whole days and says which itself (the Quality tab).
   */
  showWindow?: boolean;
  className?: string;
}

export function DateRangeSelect({
  id,
  filters,
  dateRanges,
  onChange,
  timeZone,
  showWindow = true,
  className,
}: DateRangeSelectProps) {
  const [picking, setPicking] = useState(false);
  const dialogMounted = useHasBeenTrue(picking);
  const custom = isCustomRange(filters);
  return (
    <div className={className ?? 'flex min-w-0 flex-col gap-1.5'}>
      <Label htmlFor={id}>Date Range</Label>
      <div className="flex gap-1.5">
        <Select
          value={custom ? CUSTOM : filters.dateRange}
          onValueChange={(value) =>
            value === CUSTOM
              ? setPicking(true)
              : // The items are DateRange values besides CUSTOM, handled just above
                onChange({ dateRange: value as DateRange, from: '', to: '' })
          }
        >
          <SelectTrigger id={id} className="w-full min-w-0" aria-label="Date Range">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {dateRanges.map((range) => (
              <SelectItem key={range} value={range}>
                {DATE_RANGE_LABELS[range]}
              </SelectItem>
            ))}
            <SelectItem value={CUSTOM}>
              {custom ? rangeLabel(filters.from, filters.to) : 'Custom range…'}
            </SelectItem>
          </SelectContent>
        </Select>
        {custom && (
          <Button
            variant="outline"
            size="icon"
            aria-label="Change the custom range"
            title="Change the custom range"
            onClick={() => setPicking(true)}
          >
            <CalendarRange />
          </Button>
        )}
      </div>
      {showWindow ? (
        // What the window counts, exactly: a preset is rolling, so it shows its instants, not dates.
        <p className="text-muted-foreground text-xs" data-testid="range-window">
          {windowLabel(filters, Date.now(), timeZone)}
        </p>
      ) : (
        custom && (
          <p className="text-muted-foreground text-xs" data-testid="range-zone">
            Days in {timeZone ?? "the account's time zone"}
          </p>
        )
      )}
      {dialogMounted && (
        <Suspense fallback={null}>
          <CustomRangeDialog
            open={picking}
            from={filters.from}
            to={filters.to}
            timeZone={timeZone}
            onApply={(range) => {
              setPicking(false);
              onChange(range);
            }}
            onCancel={() => setPicking(false)}
          />
        </Suspense>
      )}
    </div>
  );
}
