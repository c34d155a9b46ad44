/**
 * Date range, pathway and status filters of a calls view (SPEC §2 "Filter bar"), the outcome and
 * "Needs attention" where the view has outcomes, and conversation quality.
 */
import { Check, SlidersHorizontal } from 'lucide-react';
import type { ReactNode } from 'react';
import { PATHWAYS, type StatusFilter } from '../../../contract/calls';
import type { DateRange } from '../../../contract/common';
import { Button } from '../../components/ui/button';
import { Card, CardContent } from '../../components/ui/card';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../components/ui/dialog';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { Switch } from '../../components/ui/switch';
import { ToggleGroup, ToggleGroupItem } from '../../components/ui/toggle-group';
import { pathwayWords, useShowPlatformDetails } from '../../lib/platform-details';
import { useMediaQuery, WIDE_SCREEN } from '../../lib/use-media-query';
import { rangeLabel } from './custom-range-label';
import { DateRangeSelect } from './date-range-select';
import {
  activeFilterCount,
  type CallFilters,
  DATE_RANGE_LABELS,
  isCustomRange,
  narrowTo,
  QUALITY_FILTERS,
  type QualityFilterKey,
} from './filters';

const PATHWAY_LABELS: Record<string, string> = {
  sales: 'Sales',
  support: 'Support',
  booking: 'Booking',
};
/** SPEC's two first; failed and transferred calls are the ones a client most needs to review. */
const STATUS_OPTIONS: { value: StatusFilter; label: string }[] = [
  { value: 'completed', label: 'Completed' },
  { value: 'active', label: 'Active' },
  { value: 'failed', label: 'Failed' },
  { value: 'transferred', label: 'Transferred' },
  { value: 'all', label: 'All' },
];

export interface CallFilterBarProps {
  filters: CallFilters;
  dateRanges: readonly DateRange[];
  /** Receives only what changed; the owner resets the page (see updateFilters). */
  onChange: (change: Partial<CallFilters>) => void;
  /** Whether the page also has the call log's search box (named in the scope note). */
  searchable?: boolean;
  /** The client's outcome names: with them, the bar filters by outcome and "Needs attention". */
  outcomes?: string[];
  /** The account's time zone, which custom ranges are counted in (shown with them). */
  timeZone?: string;
}

/** Which parts of the page each filter drives, said where the filters are. */
export function filterScopeNote(searchable: boolean, withOutcomes = false, showPlatform = true): string {
  const logOnly = [
    'Status',
    ...(withOutcomes ? ['outcome', 'needs attention'] : []),
    ...(searchable ? ['search'] : []),
  ];
  const named =
    logOnly.length === 1 ? logOnly[0] : `${logOnly.slice(0, -1).join(', ')} and ${logOnly.at(-1)}`;
  return `Date range and ${pathwayWords(showPlatform).lower} apply to the whole page. ${named} filter${logOnly.length === 1 ? 's' : ''} the call log only; the ${withOutcomes ? 'calls chart' : 'chart'} shows calls that completed.`;
}

export function CallFilterBar(props: CallFilterBarProps) {
  // A phone keeps the numbers on its first screen: the filters wait behind one button.
  const wide = useMediaQuery(WIDE_SCREEN);
  const pathway = pathwayWords(useShowPlatformDetails());
  const note = (
    <p id="filter-scope-note" className="text-muted-foreground text-xs" data-testid="filter-scope-note">
      {filterScopeNote(props.searchable ?? false, !!props.outcomes, pathway.lower === 'pathway')}
    </p>
  );
  if (!wide) return <FiltersSheet {...props} note={note} />;
  return (
    <Card className="gap-3 py-4" data-testid="call-filter-bar">
      <CardContent className="flex flex-col gap-4 px-4 sm:flex-row sm:flex-wrap sm:items-end">
        <FilterFields {...props} />
      </CardContent>
      <CardContent className="px-4">{note}</CardContent>
    </Card>
  );
}

/**
 * The phone's filters: a "Filters" button saying how many are on, and what the page counts (the
 * window and status), opening the same fields in a dialog. Each choice applies at once, as on the
 * bar; Done closes it and the focus goes back to the button.
 */
function FiltersSheet({ note, ...props }: CallFilterBarProps & { note: ReactNode }) {
  const { filters } = props;
  const count = activeFilterCount(filters);
  const windowText = isCustomRange(filters)
    ? rangeLabel(filters.from, filters.to)
    : DATE_RANGE_LABELS[filters.dateRange];
  const status = STATUS_OPTIONS.find((o) => o.value === filters.status)?.label ?? filters.status;
  return (
    <Dialog>
      <div className="flex min-w-0 items-center gap-3" data-testid="filters-summary">
        {/* The name is the visible text ("Filters 2") and a word for screen readers: a name that
            differs from what is seen fails WCAG 2.5.3 (label in name). */}
        <DialogTrigger asChild>
          <Button variant="outline" data-testid="filters-button">
            <SlidersHorizontal aria-hidden="true" />
            Filters
            {count > 0 && (
              <>
                {' '}
                <span
                  className="rounded-full bg-primary px-1.5 font-semibold text-primary-foreground text-xs tabular-nums"
                  data-testid="filters-count"
                >
                  {count}
                </span>
                <span className="sr-only"> on</span>
              </>
            )}
          </Button>
        </DialogTrigger>
        <p className="min-w-0 truncate text-muted-foreground text-sm">
          {windowText} · {status}
        </p>
      </div>
      <DialogContent className="gap-5" data-testid="call-filter-bar">
        <DialogHeader>
          <DialogTitle>Filters</DialogTitle>
          <DialogDescription asChild>{note}</DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-4">
          <FilterFields {...props} />
        </div>
        <DialogFooter>
          <DialogClose asChild>
            <Button>Done</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** The filters themselves, in the bar on a wide screen and in the dialog on a phone. */
function FilterFields({ filters, dateRanges, onChange, outcomes, timeZone }: CallFilterBarProps) {
  const pathway = pathwayWords(useShowPlatformDetails());
  return (
    <>
      <DateRangeSelect
        id="filter-date-range"
        className="flex min-w-0 flex-col gap-1.5 sm:w-72"
        filters={filters}
        dateRanges={dateRanges}
        onChange={onChange}
        timeZone={timeZone}
      />
      <div className="flex min-w-0 flex-col gap-1.5 sm:w-48">
        <Label htmlFor="filter-pathway">{pathway.label}</Label>
        <Select value={filters.pathway} onValueChange={(pathway) => onChange({ pathway })}>
          <SelectTrigger id="filter-pathway" className="w-full" aria-label={pathway.label}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {['all', ...PATHWAYS].map((p) => (
              <SelectItem key={p} value={p}>
                {p === 'all' ? pathway.all : (PATHWAY_LABELS[p] ?? p)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="flex flex-col gap-1.5">
        <span className="font-medium text-sm leading-none" id="filter-status-label">
          Status
        </span>
        <ToggleGroup
          type="single"
          variant="outline"
          className="w-full sm:w-fit"
          aria-labelledby="filter-status-label"
          aria-describedby="filter-scope-note"
          value={filters.status}
          // Radix lets a single toggle be switched off; the log always shows one status.
          onValueChange={(value) => value && onChange({ status: value as StatusFilter })}
        >
          {STATUS_OPTIONS.map((o) => (
            <ToggleGroupItem
              key={o.value}
              value={o.value}
              className="flex-auto px-1.5 text-xs sm:px-4 sm:text-sm"
            >
              {o.label}
            </ToggleGroupItem>
          ))}
        </ToggleGroup>
      </div>
      {outcomes && (
        <>
          <div className="flex min-w-0 flex-col gap-1.5 sm:w-52">
            <Label htmlFor="filter-outcome">Outcome</Label>
            <Select
              value={filters.outcome}
              onValueChange={(outcome) =>
                onChange(outcome === 'all' ? { outcome } : narrowTo(filters, { outcome }))
              }
            >
              <SelectTrigger id="filter-outcome" className="w-full" aria-label="Outcome">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="all">All outcomes</SelectItem>
                {outcomes.map((name) => (
                  <SelectItem key={name} value={name}>
                    {name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          {/* On a phone the label makes the row a finger high: a press on it flips the switch. */}
          <div className="flex items-center gap-2 sm:h-9">
            <Switch
              id="filter-attention"
              checked={filters.attention}
              onCheckedChange={(attention) =>
                onChange(attention ? narrowTo(filters, { attention }) : { attention })
              }
            />
            <Label htmlFor="filter-attention" className="max-sm:min-h-11 max-sm:flex-1">
              Needs attention only
            </Label>
          </div>
        </>
      )}
      <QualityFilters filters={filters} onChange={onChange} />
    </>
  );
}

/**
 * Slow answers, interruptions and dead air: each a bound on the call log (the default
 * thresholds'), toggled on and off; a link naming another bound shows it in the label.
 */
function QualityFilters({
  filters,
  onChange,
}: {
  filters: CallFilters;
  onChange: (change: Partial<CallFilters>) => void;
}) {
  const on = QUALITY_FILTERS.filter(({ key }) => filters[key] !== null).map(({ key }) => key);
  return (
    <div className="flex min-w-0 flex-col gap-1.5" data-testid="quality-filters">
      <span className="font-medium text-sm leading-none" id="filter-quality-label">
        Conversation quality <span className="font-normal text-muted-foreground">(call log only)</span>
      </span>
      <ToggleGroup
        type="multiple"
        variant="outline"
        // Pills apart, not one joined bar: three long labels wrap on a phone.
        className="w-full flex-wrap gap-1.5 shadow-none sm:w-fit"
        aria-labelledby="filter-quality-label"
        value={on}
        onValueChange={(values) => {
          const change: Partial<Record<QualityFilterKey, number | null>> = {};
          for (const { key, bound } of QUALITY_FILTERS) {
            const wanted = values.includes(key);
            if (wanted !== (filters[key] !== null)) change[key] = wanted ? bound : null;
          }
          onChange(change);
        }}
      >
        {QUALITY_FILTERS.map(({ key, bound, label, hint }) => (
          <ToggleGroupItem
            key={key}
            value={key}
            title={hint(filters[key] ?? bound)}
            className="flex-auto rounded-md px-2.5 text-xs data-[variant=outline]:border-l sm:px-3 sm:text-sm"
          >
            {/* Shown, not only coloured: a chosen filter has its tick. */}
            {filters[key] !== null && <Check aria-hidden="true" />}
            {label(filters[key] ?? bound)}
          </ToggleGroupItem>
        ))}
      </ToggleGroup>
    </div>
  );
}
