/**
 * The admin's export of every client's calls over a recent range: one file, a Client
 * column first, each call's time in its client's zone.
 */
import { useId, useState } from 'react';
import { ADMIN_DATE_RANGES, type DateRange } from '../../../contract/common';
import { NativeSelect } from '../../components/native-select';
import { Card, CardContent } from '../../components/ui/card';
import { ExportLinks } from '../calls/export-links';
import { DATE_RANGE_LABELS, dateWindow } from '../calls/filters';

export function AllCallsExport() {
  const [range, setRange] = useState<DateRange>('30d');
  const id = useId();
  return (
    <Card className="py-4">
      <CardContent className="flex flex-col gap-3 px-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="font-semibold">Export every client's calls</h2>
          <p className="text-muted-foreground text-sm">
            One spreadsheet, a row per call, times in each client's zone.
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor={id} className="sr-only">
            Export range
          </label>
          <NativeSelect
            id={id}
            value={range}
            onChange={(e) => setRange(e.target.value as DateRange /* options are ADMIN_DATE_RANGES */)}
          >
            {ADMIN_DATE_RANGES.map((r) => (
              <option key={r} value={r}>
                {DATE_RANGE_LABELS[r]}
              </option>
            ))}
          </NativeSelect>
          <ExportLinks
            url="/api/admin/calls/export"
            params={() => new URLSearchParams({ status: 'all', ...dateWindow(range, Date.now()) })}
          />
        </div>
      </CardContent>
    </Card>
  );
}
