/** Shared by the chart and its placeholders, which must not pull in Recharts. */
export const CHART_HEIGHT_PX = 300;
