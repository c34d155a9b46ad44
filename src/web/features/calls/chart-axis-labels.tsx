/**
 * The axis labels of the dashboards' charts, chosen by chart-ticks.ts instead of by Recharts'
 * text measuring. Drawn as Recharts draws its own (same class, colour and offset), as
 * plain SVG text: Recharts' Text component would measure the words again.
 */
import type { ReactNode } from 'react';
import type { XAxisTickContentProps, YAxisTickContentProps } from 'recharts';
import { labelStep, showsLabel } from './chart-ticks';

/** The space Recharts leaves the plot: the charts' margins (-16 left, 16 right) and the 48 px y axis. */
const PLOT_INSET_PX = 48;

/**
 * The `tick` of an XAxis of `count` points on a chart `width` pixels wide (with `interval={0}`).
 * `pointsAtEdges`: the line chart's first and last points sit on the plot's edges, so their labels
 * end there instead of being cut in half (Recharts moved them in likewise).
 */
export function xAxisLabel(
  count: number,
  width: number,
  pointsAtEdges = false,
): (props: XAxisTickContentProps) => ReactNode {
  const step = labelStep(count, width - PLOT_INSET_PX);
  const anchor = (index: number) =>
    !pointsAtEdges || count < 2 ? 'middle' : index === 0 ? 'start' : index === count - 1 ? 'end' : 'middle';
  return ({ x, y, index, payload }) =>
    showsLabel(index, count, step) ? (
      <text
        x={x}
        y={y}
        dy="0.71em"
        textAnchor={anchor(index)}
        fill="#666"
        fontSize={12}
        className="recharts-text recharts-cartesian-axis-tick-value"
      >
        {String(payload.value)}
      </text>
    ) : null;
}

/** The y axis labels, drawn as Recharts draws them, as plain SVG text for the same reason. */
export function yAxisLabel({ x, y, payload }: YAxisTickContentProps): ReactNode {
  return (
    <text
      x={x}
      y={y}
      dy="0.355em"
      textAnchor="end"
      fill="#666"
      fontSize={12}
      className="recharts-text recharts-cartesian-axis-tick-value"
    >
      {String(payload.value)}
    </text>
  );
}
