/**
 * A dashboard card's chart area: the chart-height skeleton until the page has painted
 * (AfterPaint) and the chart's lazy chunk is in, then the chart at the width the skeleton measured.
 * Recharts stays out of this module: the charts are the callers' lazy imports.
 */
import { type ReactNode, type Ref, Suspense } from 'react';
import { AfterPaint } from '../../components/after-paint';
import { Skeleton } from '../../components/ui/skeleton';
import { CHART_HEIGHT_PX } from './chart-size';

/** The chart area's placeholder, of the chart's height so nothing moves when it arrives. */
export function ChartAreaSkeleton({ ref }: { ref?: Ref<HTMLDivElement> }) {
  return <Skeleton ref={ref} className="w-full" style={{ height: CHART_HEIGHT_PX }} />;
}

export function DeferredChart({ children }: { children: (width: number) => ReactNode }) {
  return (
    <AfterPaint placeholder={(ref) => <ChartAreaSkeleton ref={ref} />}>
      {(width) => <Suspense fallback={<ChartAreaSkeleton />}>{children(width)}</Suspense>}
    </AfterPaint>
  );
}
