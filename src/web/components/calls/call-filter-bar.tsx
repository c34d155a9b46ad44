/** Date range, pathway and status filters of a calls view (SPEC §2 "Filter bar"). */
import { PATHWAYS, type StatusFilter } from '../../../contract/calls';
import type { DateRange } from '../../../contract/common';
import { Card, CardContent } from '../ui/card';
import { Label } from '../ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../ui/select';
import { ToggleGroup, ToggleGroupItem } from '../ui/toggle-group';
import { type CallFilters, DATE_RANGE_LABELS } from './filters';

const PATHWAY_LABELS: Record<string, string> = {
  all: 'All Pathways',
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
}

export function CallFilterBar({ filters, dateRanges, onChange }: CallFilterBarProps) {
  return (
    <Card className="py-4" data-testid="call-filter-bar">
      <CardContent className="flex flex-col gap-4 px-4 sm:flex-row sm:flex-wrap sm:items-end">
        <div className="flex min-w-0 flex-col gap-1.5 sm:w-48">
          <Label htmlFor="filter-date-range">Date Range</Label>
          <Select
            value={filters.dateRange}
            onValueChange={(value) => onChange({ dateRange: value as DateRange })}
          >
            <SelectTrigger id="filter-date-range" className="w-full" aria-label="Date Range">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {dateRanges.map((range) => (
                <SelectItem key={range} value={range}>
                  {DATE_RANGE_LABELS[range]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="flex min-w-0 flex-col gap-1.5 sm:w-48">
          <Label htmlFor="filter-pathway">Pathway</Label>
          <Select value={filters.pathway} onValueChange={(pathway) => onChange({ pathway })}>
            <SelectTrigger id="filter-pathway" className="w-full" aria-label="Pathway">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {['all', ...PATHWAYS].map((p) => (
                <SelectItem key={p} value={p}>
                  {PATHWAY_LABELS[p] ?? p}
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
      </CardContent>
    </Card>
  );
}
