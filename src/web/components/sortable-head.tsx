/** A table heading that sorts its column: a button inside, aria-sort on the heading, an arrow showing the order. */
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { cn } from '../lib/utils';
import { TableHead } from './ui/table';

export interface SortableHeadProps {
  label: string;
  /** The order this column is sorted in, or null when another column sorts the table. */
  order: 'asc' | 'desc' | null;
  onSort: () => void;
  className?: string;
}

export function SortableHead({ label, order, onSort, className }: SortableHeadProps) {
  const Icon = order === null ? ArrowUpDown : order === 'asc' ? ArrowUp : ArrowDown;
  return (
    <TableHead
      className={className}
      aria-sort={order === null ? undefined : order === 'asc' ? 'ascending' : 'descending'}
    >
      <button
        type="button"
        className="-mx-1 inline-flex items-center gap-1 rounded px-1 hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
        onClick={onSort}
        title={`Sort by ${label.toLowerCase()}`}
      >
        {label}
        <Icon className={cn('size-3.5', order === null && 'text-muted-foreground')} aria-hidden="true" />
      </button>
    </TableHead>
  );
}
