/**
 * How the period's figures were measured and how they spread: calls per timing
 * precision with what each lets us say, and the three worst-call metrics as plain bar lists
 * (text first; the bars only repeat it, so they are hidden from screen readers).
 */
import { formatCount } from '../../../../contract/format';
import { type QualitySummary, WORST_METRICS } from '../../../../contract/quality';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { useShowPlatformDetails } from '../../../lib/platform-details';
import { precisionExplanation } from './quality-format';
import { DISTRIBUTION_TITLES, distributionRows, precisionRows } from './quality-summary-rows';

const calls = (n: number) => `${formatCount(n)} ${n === 1 ? 'call' : 'calls'}`;

export function QualityPrecisionCard({ summary }: { summary: QualitySummary }) {
  const showPlatform = useShowPlatformDetails();
  return (
    <Card className="gap-4" data-testid="quality-precision">
      <CardHeader>
        <CardTitle>
          <h3>How precisely calls were timed</h3>
        </CardTitle>
        <CardDescription>
          Each platform says when its lines were spoken in its own way; a figure is shown only where the
          timing can support it.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-3 sm:grid-cols-2">
          {precisionRows(summary.precision).map((row) => (
            <div
              key={row.precision}
              className="grid content-start gap-1 rounded-md border p-3"
              data-testid={`precision-${row.precision}`}
            >
              <dt className="flex flex-wrap items-baseline justify-between gap-x-2 font-medium text-sm">
                {row.label}
                <span
                  className="font-normal text-muted-foreground tabular-nums"
                  data-testid="precision-calls"
                >
                  {calls(row.calls)} ({row.percent}%)
                </span>
              </dt>
              <dd className="text-muted-foreground text-xs">
                {precisionExplanation(row.precision, showPlatform)}
              </dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}

export function QualityDistributionCard({ summary }: { summary: QualitySummary }) {
  return (
    <Card className="gap-4" data-testid="quality-distribution">
      <CardHeader>
        <CardTitle>
          <h3>How calls spread</h3>
        </CardTitle>
        <CardDescription>
          Calls of the period by each figure, where the timing could measure it.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 lg:grid-cols-3">
        {WORST_METRICS.map((metric) => {
          const { title } = DISTRIBUTION_TITLES[metric];
          const id = `quality-distribution-${metric}`;
          return (
            <section key={metric} aria-labelledby={id} className="grid content-start gap-2">
              <h4 id={id} className="font-medium text-sm">
                {title}
              </h4>
              <ul className="grid gap-1.5" data-testid={id}>
                {distributionRows(metric, summary.distribution[metric]).map((row) => (
                  <li key={row.label} className="grid grid-cols-[6.5rem_1fr_auto] items-center gap-2 text-sm">
                    <span className="truncate">{row.label}</span>
                    <span className="h-3 overflow-hidden rounded-sm bg-muted" aria-hidden="true">
                      <span
                        className="block h-full rounded-sm bg-primary"
                        style={{ width: `${row.percent}%` }}
                      />
                    </span>
                    <span className="text-right text-muted-foreground text-xs tabular-nums">
                      {calls(row.calls)}
                      <span className="sr-only"> ({row.percent}%)</span>
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </CardContent>
    </Card>
  );
}
