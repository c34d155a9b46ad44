/** Minutes used this month against the plan (SPEC §5, §9): capped at 100 %, a warning above 80 %. */
import { AlertTriangle } from 'lucide-react';
import { isUsageWarning, usagePercent } from '../../../contract/billing';
import { formatCount } from '../../../contract/format';
import { cn } from '../../lib/utils';

export function UsageBar({ used, included }: { used: number; included: number }) {
  const percent = usagePercent(used, included);
  const warning = isUsageWarning(used, included);
  return (
    <div className="grid gap-2">
      <div className="flex items-baseline justify-between gap-2 text-sm">
        <span className="font-medium">Minutes used this month</span>
        <span className="text-muted-foreground tabular-nums">
          {formatCount(used)} / {formatCount(included)} ({Math.round(percent)}%)
        </span>
      </div>
      <div
        role="progressbar"
        aria-label="Minutes used this month"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(percent)}
        className="h-2.5 w-full overflow-hidden rounded-full bg-muted"
      >
        {/* The text shade, not the fill: the bar must stand out from its track (3:1) whatever the brand. */}
        <div
          data-testid="usage-bar-fill"
          className={cn(
            'h-full rounded-full transition-[width]',
            warning ? 'bg-amber-500' : 'bg-primary-text',
          )}
          style={{ width: `${percent}%` }}
        />
      </div>
      {warning && (
        <p role="status" className="flex items-center gap-1.5 text-amber-700 text-xs dark:text-amber-400">
          <AlertTriangle className="size-3.5 shrink-0" aria-hidden="true" />
          {percent >= 100
            ? 'You have used all the minutes included in your plan this month. Consider upgrading.'
            : `You have used ${Math.round(percent)}% of your monthly minutes. Consider upgrading your plan.`}
        </p>
      )}
    </div>
  );
}
