/**
 * "Export": the call log's current view (its filters, search and sort) as CSV or Excel.
 * Plain links, so the browser streams the file to disk itself however large it is; the window is
 * taken when the link is followed, not when the page was drawn.
 */
import { FileDown } from 'lucide-react';
import type { MouseEvent } from 'react';
import type { ExportFormat } from '../../../contract/calls';
import { Button } from '../../components/ui/button';

const FORMATS: { format: ExportFormat; label: string }[] = [
  { format: 'csv', label: 'CSV' },
  { format: 'xlsx', label: 'Excel' },
];

export function exportHref(url: string, params: URLSearchParams, format: ExportFormat): string {
  const query = new URLSearchParams(params);
  query.set('format', format);
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

export function ExportLinks({ url, params }: { url: string; params: () => URLSearchParams }) {
  const follow = (format: ExportFormat) => (event: MouseEvent<HTMLAnchorElement>) => {
    event.currentTarget.href = exportHref(url, params(), format);
  };
  return (
    <fieldset className="flex items-center gap-1.5" data-testid="call-export">
      <legend className="sr-only">Export these calls</legend>
      <FileDown className="size-4 text-muted-foreground" aria-hidden="true" />
      {FORMATS.map(({ format, label }) => (
        <Button key={format} variant="outline" size="sm" asChild>
          <a
            href={exportHref(url, params(), format)}
            download
            onClick={follow(format)}
            aria-label={`Export these calls as ${label}`}
          >
            {label}
          </a>
        </Button>
      ))}
    </fieldset>
  );
}
