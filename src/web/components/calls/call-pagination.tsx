/** "Showing X to Y of Z results", Previous, 1..min(5, totalPages), Next. Hidden with one page. */
import type { Pagination } from '../../../contract/common';
import { Button } from '../ui/button';
import { hasPages, pageButtons, showingText } from './pagination';

export function CallPagination({
  pagination,
  onPageChange,
}: {
  pagination: Pagination | undefined;
  onPageChange: (page: number) => void;
}) {
  if (!hasPages(pagination)) return null;
  const { page, totalPages } = pagination;
  return (
    <nav
      aria-label="Pagination"
      className="flex flex-col items-center justify-between gap-3 pt-4 sm:flex-row"
      data-testid="pagination"
    >
      <p className="text-muted-foreground text-sm">{showingText(pagination)}</p>
      <div className="flex flex-wrap items-center justify-center gap-1">
        <Button
          variant="outline"
          size="sm"
          className="px-2.5"
          disabled={page <= 1}
          onClick={() => onPageChange(page - 1)}
        >
          Previous
        </Button>
        {pageButtons(totalPages).map((n) => (
          <Button
            key={n}
            variant={n === page ? 'default' : 'outline'}
            size="sm"
            className="min-w-8 px-2"
            aria-current={n === page ? 'page' : undefined}
            aria-label={`Page ${n}`}
            onClick={() => onPageChange(n)}
          >
            {n}
          </Button>
        ))}
        <Button
          variant="outline"
          size="sm"
          className="px-2.5"
          disabled={page >= totalPages}
          onClick={() => onPageChange(page + 1)}
        >
          Next
        </Button>
      </div>
    </nav>
  );
}
