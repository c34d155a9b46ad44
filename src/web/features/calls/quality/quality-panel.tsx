/**
 * The calls workspace's Quality tab: for the workspace's date range, how well the agent
 * spoke against the period before (the typical call and the worst 1 in 10, in plain words), how precisely the calls were timed, how
 * they spread, and the worst calls, each opening the drawer at its moment. Says when no call of
 * the period was measured, and while earlier calls are still being measured.
 */
import { Info } from 'lucide-react';
import { formatCount } from '../../../../contract/format';
import type { QualitySummary } from '../../../../contract/quality';
import { DEFAULT_QUALITY_THRESHOLDS } from '../../../../contract/quality-metrics';
import { QueryView } from '../../../components/query-view';
import { Card, CardContent } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import type { CallSource } from '../call-source';
import { rangeLabel } from '../custom-range-label';
import { DateRangeSelect } from '../date-range-select';
import type { CallFilters } from '../filters';
import { useQualitySummary, useQualityThresholds } from '../queries';
import { QualityDistributionCard, QualityPrecisionCard } from './quality-breakdown';
import { hasMeasuredCalls, measuringText } from './quality-cards';
import { QualityMetricCards } from './quality-metric-cards';
import { QualityWorstCalls } from './quality-worst-calls';

export interface QualityPanelProps {
  source: CallSource;
  filters: CallFilters;
  onChange: (change: Partial<CallFilters>) => void;
  onOpenCall: (callId: string, seconds: number | null) => void;
  /** The account's time zone: custom ranges are its days, and calls' times are shown in it. */
  timeZone?: string;
}

export const NO_MEASURED_CALLS_TEXT =
  'No call of this period was measured. Quality is measured from each call’s transcript and the times its platform gives for the lines; calls appear here as they arrive.';

export function QualityPanel({ source, filters, onChange, onOpenCall, timeZone }: QualityPanelProps) {
  const query = useQualitySummary(source, filters);
  const thresholds = useQualityThresholds(source.qualityThresholdsUrl).data?.thresholds;
  const slowAnswerMs = thresholds
    ? thresholds.responseLatencyP90Ms
    : DEFAULT_QUALITY_THRESHOLDS.responseLatencyP90Ms;
  return (
    <div className="flex flex-col gap-6" data-testid="quality-panel">
      <Card className="gap-3 py-4">
        <CardContent className="flex flex-col gap-3 px-4 sm:flex-row sm:flex-wrap sm:items-end sm:justify-between">
          <DateRangeSelect
            id="quality-date-range"
            className="flex min-w-0 flex-col gap-1.5 sm:w-72"
            filters={filters}
            dateRanges={source.dateRanges}
            onChange={onChange}
            timeZone={timeZone}
            showWindow={false}
          />
          {query.data && <PeriodNote summary={query.data} />}
        </CardContent>
      </Card>
      <MeasuringNote url={source.qualityThresholdsUrl} />
      <QueryView
        query={query}
        what="the conversation quality"
        loading={
          <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4" data-testid="quality-loading">
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} className="h-40 rounded-xl" />
            ))}
          </div>
        }
        isEmpty={(summary) => !summary || !hasMeasuredCalls(summary)}
        empty={
          <Card className="py-8" data-testid="quality-empty">
            <CardContent className="mx-auto max-w-prose text-center text-muted-foreground text-sm">
              {NO_MEASURED_CALLS_TEXT}
            </CardContent>
          </Card>
        }
      >
        {(summary) => (
          <>
            <section aria-label="Quality figures">
              <QualityMetricCards summary={summary} slowAnswerMs={slowAnswerMs} />
            </section>
            <QualityWorstCalls worst={summary.worst} onOpenCall={onOpenCall} timeZone={timeZone} />
            <QualityDistributionCard summary={summary} />
            <QualityPrecisionCard summary={summary} />
          </>
        )}
      </QueryView>
    </div>
  );
}

function PeriodNote({ summary }: { summary: QualitySummary }) {
  const { current, previous } = summary;
  return (
    <p className="text-muted-foreground text-sm sm:text-right" data-testid="quality-period">
      {formatCount(current.calls)} {current.calls === 1 ? 'call' : 'calls'} measured,{' '}
      {rangeLabel(current.from, current.to)}
      <br />
      compared with {rangeLabel(previous.from, previous.to)}: {formatCount(previous.calls)}{' '}
      {previous.calls === 1 ? 'call' : 'calls'}
    </p>
  );
}

/** "Measuring earlier calls: N of M" while the calls stored before quality arrived are measured. */
function MeasuringNote({ url }: { url: string | undefined }) {
  const state = useQualityThresholds(url).data;
  if (!state?.measuring) return null;
  return (
    <p
      role="status"
      className="flex items-center gap-2 rounded-md border bg-muted/40 p-3 text-sm"
      data-testid="quality-measuring"
    >
      <Info className="size-4 shrink-0" aria-hidden="true" />
      {measuringText(state.measuring)}
    </p>
  );
}
