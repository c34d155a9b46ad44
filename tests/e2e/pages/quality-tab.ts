/**
 * Conversation quality in a calls workspace: the Quality tab, the drawer's "Conversation
 * quality" section with the synced transcript's marks, and the "Quality thresholds" card (Settings
 * › Outcomes, or the admin's client view).
 */
import { expect, type Locator, type Page } from '@playwright/test';

export type CardMetric =
  | 'responseLatencyP50Ms'
  | 'responseLatencyP90Ms'
  | 'interruptionsCaller'
  | 'deadAirLongestMs'
  | 'silencePct'
  | 'agentTalkPct'
  | 'talkListenRatio';
export type WorstMetric = 'responseLatencyP90Ms' | 'interruptionsCaller' | 'deadAirLongestMs';

export class QualityTab {
  readonly tab: Locator;
  readonly callsTab: Locator;
  readonly panel: Locator;
  readonly period: Locator;
  readonly empty: Locator;

  constructor(readonly page: Page) {
    this.tab = page.getByRole('tab', { name: 'Quality' });
    this.callsTab = page.getByRole('tab', { name: 'Calls' });
    this.panel = page.getByTestId('quality-panel');
    this.period = page.getByTestId('quality-period');
    this.empty = page.getByTestId('quality-empty');
  }

  /** Waits until the figures (or the empty state) replaced the loading cards. */
  async waitForFigures() {
    await expect(this.panel).toBeVisible();
    await expect(this.page.getByTestId('quality-loading')).toHaveCount(0);
  }

  card(metric: CardMetric): Locator {
    return this.page.getByTestId(`quality-card-${metric}`);
  }

  median(metric: CardMetric): Locator {
    return this.card(metric).getByTestId('quality-median');
  }

  p90(metric: CardMetric): Locator {
    return this.card(metric).getByTestId('quality-p90');
  }

  change(metric: CardMetric): Locator {
    return this.card(metric).getByTestId('quality-change');
  }

  precisionCalls(precision: 'word' | 'message' | 'segment' | 'approx'): Locator {
    return this.page.getByTestId(`precision-${precision}`).getByTestId('precision-calls');
  }

  distribution(metric: WorstMetric): Locator {
    return this.page.getByTestId(`quality-distribution-${metric}`).getByRole('listitem');
  }

  worstCalls(metric: WorstMetric): Locator {
    return this.page.getByTestId(`quality-worst-${metric}`).getByTestId('quality-worst-call');
  }
}

/** The drawer's quality section (its one line, every figure behind "Details") and the transcript's marks. */
export class DrawerQuality {
  readonly section: Locator;
  readonly line: Locator;
  readonly details: Locator;
  readonly note: Locator;
  readonly marks: Locator;
  readonly activeLine: Locator;

  constructor(readonly page: Page) {
    const drawer = page.getByTestId('call-detail');
    this.section = drawer.getByTestId('call-quality');
    this.line = this.section.getByTestId('call-quality-line');
    this.details = this.section.getByTestId('call-quality-details');
    this.note = this.section.getByTestId('call-quality-note');
    this.marks = drawer.getByTestId('transcript-mark');
    this.activeLine = drawer.locator('[data-testid="transcript-line"][aria-current="true"]');
  }

  /** Opens "Details" (the figures, the timing, why a figure is missing). */
  async openDetails() {
    await this.details.getByText('Details', { exact: true }).click();
    await expect(this.details).toHaveAttribute('open', '');
  }

  figure(key: string): Locator {
    return this.section.getByTestId(`call-quality-${key}`).locator('dd');
  }

  /** The transcript line saying `text`, with its marks. */
  transcriptLine(text: string): Locator {
    return this.page.getByTestId('call-detail').getByTestId('transcript-line').filter({ hasText: text });
  }
}

export type ThresholdName = 'Slow answers' | 'Dead air' | 'Caller interruptions';
const UNIT: Record<ThresholdName, string> = {
  'Slow answers': 'seconds',
  'Dead air': 'seconds',
  'Caller interruptions': 'times',
};

export class QualityThresholds {
  readonly card: Locator;
  readonly save: Locator;

  constructor(readonly page: Page) {
    this.card = page.getByTestId('quality-thresholds');
    this.save = this.card.getByRole('button', { name: 'Save quality thresholds' });
  }

  check(name: ThresholdName): Locator {
    return this.card.getByRole('switch', { name, exact: true });
  }

  value(name: ThresholdName): Locator {
    return this.card.getByLabel(`${name}, in ${UNIT[name]}`);
  }
}
