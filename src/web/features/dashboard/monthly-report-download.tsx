/**
 * Download a month's report as a PDF (issue 14): GET /api/client/reports/monthly?month=, the same
 * report the 1st's e-mail attaches. The last twelve months, the current one "so far".
 */
import { FileDown } from 'lucide-react';
import { useState } from 'react';
import { buttonVariants } from '../../components/ui/button';

function lastMonths(count: number, today = new Date()): { value: string; label: string }[] {
  return Array.from({ length: count }, (_, i) => {
    const d = new Date(today.getFullYear(), today.getMonth() - i, 1);
    const value = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
    const label = d.toLocaleDateString('en-US', { month: 'long', year: 'numeric' });
    return { value, label: i === 0 ? `${label} (so far)` : label };
  });
}

export function MonthlyReportDownload() {
  const months = lastMonths(12);
  const [month, setMonth] = useState(months[1].value);
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-2">
      <label htmlFor="report-month" className="sr-only">
        Report month
      </label>
      <select
        id="report-month"
        value={month}
        onChange={(e) => setMonth(e.target.value)}
        className="h-9 min-w-0 max-w-full rounded-md border border-input bg-card px-2 text-sm shadow-xs focus-visible:border-ring focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        {months.map((m) => (
          <option key={m.value} value={m.value}>
            {m.label}
          </option>
        ))}
      </select>
      <a
        href={`/api/client/reports/monthly?month=${month}`}
        download={`report-${month}.pdf`}
        className={buttonVariants({ variant: 'outline' })}
      >
        <FileDown aria-hidden="true" />
        Monthly report (PDF)
      </a>
    </div>
  );
}
