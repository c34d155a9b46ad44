/**
 * The order of a calls workspace's sections (calls-workspace.tsx), as a pure function so the three
 * dashboards' layouts are written, and tested, in one place.
 */

/** How the call log search is offered: opened from the page's header, always shown, or not at all. */
export type SearchMode = 'toggle' | 'always' | 'none';

/** Where the search box and the filter bar sit: at the top of the page, or just above the call log. */
export type FiltersPlacement = 'top' | 'log';

export type WorkspaceSection =
  | 'banners'
  | 'heading'
  | 'live-now'
  | 'search'
  | 'filters'
  | 'stats'
  | 'calls-chart-beside'
  | 'outcomes'
  | 'log';

export interface WorkspaceLayoutOptions {
  banners: boolean;
  heading: boolean;
  /** The source has a live stream: the "Live now" strip. */
  live: boolean;
  /** Whether the search box shows now (a 'toggle' search may be closed). */
  searchShown: boolean;
  filtersAt: FiltersPlacement;
  /** A panel beside the calls chart, under the stats (the demo's Recent Activity). */
  besideCallsChart: boolean;
}

export function workspaceSections(o: WorkspaceLayoutOptions): WorkspaceSection[] {
  const filters: WorkspaceSection[] = [...(o.searchShown ? (['search'] as const) : []), 'filters'];
  return [
    ...(o.banners ? (['banners'] as const) : []),
    ...(o.heading ? (['heading'] as const) : []),
    ...(o.live ? (['live-now'] as const) : []),
    ...(o.filtersAt === 'top' ? filters : []),
    'stats',
    ...(o.besideCallsChart ? (['calls-chart-beside'] as const) : []),
    'outcomes',
    ...(o.filtersAt === 'log' ? filters : []),
    'log',
  ];
}

/** Whether the search box shows: a 'toggle' one only while the user has it open. */
export function isSearchShown(mode: SearchMode, opened: boolean): boolean {
  return mode === 'always' || (mode === 'toggle' && opened);
}

/** What a workspace shows under its heading: the calls (the sections above) or conversation quality. */
export const WORKSPACE_VIEWS = ['calls', 'quality'] as const;
export type WorkspaceView = (typeof WORKSPACE_VIEWS)[number];

/** Sections both views share, above the views' tabs. */
const SHARED: ReadonlySet<WorkspaceSection> = new Set(['banners', 'heading', 'live-now']);

/** The sections above the views' tabs, and the calls view's own, each in order. */
export function splitSections(order: readonly WorkspaceSection[]): {
  shared: WorkspaceSection[];
  calls: WorkspaceSection[];
} {
  return { shared: order.filter((s) => SHARED.has(s)), calls: order.filter((s) => !SHARED.has(s)) };
}

/** `?view=quality` opens the Quality tab; anything else, or nothing, the calls. */
export function readView(search: string): WorkspaceView {
  return new URLSearchParams(search).get('view') === 'quality' ? 'quality' : 'calls';
}

/** The query string (with its "?", or '') naming a view, other parameters kept; the calls are the default. */
export function writeView(search: string, view: WorkspaceView): string {
  const params = new URLSearchParams(search);
  if (view === 'calls') params.delete('view');
  else params.set('view', view);
  const text = params.toString();
  return text ? `?${text}` : '';
}
