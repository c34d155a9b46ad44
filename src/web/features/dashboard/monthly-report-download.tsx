/**
 * Download a month's report as a PDF: GET /api/client/reports/monthly?month=, the same
 * report the 1st's e-mail attaches. The last twelve months, the current one "so far".
 */
import { FileDown } from 'lucide-react';
import { useState } from 'react';
import { NativeSelect } from '../../components/native-select';
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
    <div className="flex min-w-0 flex-wrap items-center gap-2 max-sm:w-full max-sm:flex-nowrap">
      <label htmlFor="report-month" className="sr-only">
        Report month
      </label>
      <NativeSelect
        id="report-month"
        className="max-sm:flex-1"
        value={month}
        onChange={(e) => setMonth(e.target.value)}
      >
        {months.map((m) => (
          <option key={m.value} value={m.value}>
            {m.label}
          </option>
        ))}
      </NativeSelect>
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
