/**
 * "Showing X to Y of Z results", Previous, at most five numbered buttons, Next (SPEC §2), plus
 * First, Last and a page box, so a log of hundreds of pages is reachable. Hidden with one page.
 */
import { type FormEvent, useId, useState } from 'react';
import type { Pagination } from '../../../contract/common';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { hasPages, pageButtons, parsePageInput, showingText } from './pagination';

export function CallPagination({
  pagination,
  onPageChange,
}: {
  pagination: Pagination | undefined;
  onPageChange: (page: number) => void;
}) {
  if (!hasPages(pagination)) return null;
  const { page, totalPages } = pagination;
  const numbered = pageButtons(page, totalPages);
  const step = (label: string, target: number, disabled: boolean) => (
    <Button
      variant="outline"
      size="sm"
      className="px-2.5"
      disabled={disabled}
      onClick={() => onPageChange(target)}
    >
      {label}
    </Button>
  );
  return (
    <nav
      aria-label="Pagination"
      className="flex flex-col items-center justify-between gap-3 pt-4 lg:flex-row"
      data-testid="pagination"
    >
      <p className="text-muted-foreground text-sm">{showingText(pagination)}</p>
      <div className="flex flex-wrap items-center justify-center gap-1">
        {numbered[0] > 1 && step('First', 1, false)}
        {step('Previous', page - 1, page <= 1)}
        {numbered.map((n) => (
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
        {step('Next', page + 1, page >= totalPages)}
        {numbered[numbered.length - 1] < totalPages && step('Last', totalPages, false)}
        {totalPages > numbered.length && <JumpToPage totalPages={totalPages} onPageChange={onPageChange} />}
      </div>
    </nav>
  );
}

function JumpToPage({
  totalPages,
  onPageChange,
}: {
  totalPages: number;
  onPageChange: (page: number) => void;
}) {
  const [text, setText] = useState('');
  const id = useId();
  const target = parsePageInput(text, totalPages);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (target === null) return;
    onPageChange(target);
    setText('');
  };
  return (
    <form className="flex items-center gap-1 pl-1" onSubmit={submit} data-testid="jump-to-page">
      <label htmlFor={id} className="whitespace-nowrap text-muted-foreground text-sm">
        Go to page
      </label>
      <Input
        id={id}
        inputMode="numeric"
        className="h-8 w-16 px-2"
        placeholder={`1–${totalPages}`}
        aria-invalid={text !== '' && target === null}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <Button type="submit" variant="outline" size="sm" disabled={target === null}>
        Go
      </Button>
    </form>
  );
}
