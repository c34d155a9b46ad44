/**
 * The calls views (client dashboard at /dashboard, demo at /demo): locators and intent methods.
 * Both render the same call components, so one model serves both.
 */
import { expect, type Locator, type Page } from '@playwright/test';

export type StatKey = 'totalCalls' | 'totalCost' | 'avgDuration' | 'totalTransfers';

export class DashboardPage {
  readonly rows: Locator;
  readonly pagination: Locator;
  readonly callLog: Locator;
  readonly chartCard: Locator;
  readonly audio: Locator;
  readonly deleteDialog: Locator;
  readonly transcripts: Locator;
  /** A phone's call cards, and the button that opens its filters. */
  readonly cards: Locator;
  readonly filtersButton: Locator;
  readonly filtersDialog: Locator;

  constructor(readonly page: Page) {
    this.rows = page.getByTestId('call-row');
    this.pagination = page.getByTestId('pagination');
    this.callLog = page.getByTestId('call-log');
    this.chartCard = page.getByTestId('calls-over-time');
    this.audio = page.getByTestId('call-audio');
    this.deleteDialog = page.getByRole('alertdialog');
    this.transcripts = page.getByTestId('transcript');
    this.cards = page.getByTestId('call-card');
    this.filtersButton = page.getByTestId('filters-button');
    this.filtersDialog = page.getByRole('dialog', { name: 'Filters' });
  }

  card(callId: string): Locator {
    return this.page.locator(`[data-testid="call-card"][data-call-id="${callId}"]`);
  }

  /** A phone card's one actions button. */
  cardMenuButton(card: Locator): Locator {
    return card.getByRole('button', { name: /^Actions for the call of / });
  }

  /** Opens a phone card's actions menu and chooses one ("Show transcript", "Delete call…"). */
  async cardAction(card: Locator, action: string | RegExp) {
    await this.cardMenuButton(card).click();
    await this.page.getByRole('menu').getByRole('menuitem', { name: action }).click();
  }

  /** On a phone: opens the filters' dialog (the fields are behind one button there). */
  async openFilters() {
    await this.filtersButton.click();
    await expect(this.filtersDialog).toBeVisible();
  }

  async closeFilters() {
    await this.filtersDialog.getByRole('button', { name: 'Done' }).click();
    await expect(this.filtersDialog).toHaveCount(0);
  }

  async open(path = '/dashboard') {
    await this.page.goto(path);
    await expect(this.page.getByText('Call Analytics Dashboard')).toBeVisible();
  }

  /** Waits until the log shows rows or its empty state (not the loading skeleton). */
  async waitForLog() {
    await expect(this.page.getByTestId('calls-loading')).toHaveCount(0);
  }

  statValue(key: StatKey): Locator {
    return this.page.getByTestId(`stat-${key}`).getByTestId('stat-value');
  }

  statChange(key: StatKey): Locator {
    return this.page.getByTestId(`stat-${key}`).getByTestId('stat-change');
  }

  /** The chart's one-sentence summary for screen readers: "Total N in the period; busiest: …". */
  chartDescription(): Locator {
    return this.page.getByTestId('calls-chart').locator('svg.recharts-surface[role="application"] > desc');
  }

  row(callId: string): Locator {
    return this.page.locator(`[data-testid="call-row"][data-call-id="${callId}"]`);
  }

  async rowIds(): Promise<string[]> {
    return this.rows.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-call-id') ?? ''));
  }

  /** Durations of the visible rows in seconds (the Duration column reads m:ss). */
  async rowDurations(): Promise<number[]> {
    const texts = await this.rows.locator('td:nth-child(5)').allInnerTexts();
    return texts.map((t) => {
      const [m, s] = t.trim().split(':').map(Number);
      return m * 60 + s;
    });
  }

  async selectDateRange(label: string) {
    await this.page.getByRole('combobox', { name: 'Date Range' }).click();
    await this.page.getByRole('option', { name: label, exact: true }).click();
  }

  /** SPEC's "Pathway" is "Call type" for a client not shown the platform's terms. */
  async selectPathway(label: string) {
    await this.page.getByRole('combobox', { name: /^(Pathway|Call type)$/ }).click();
    const option = label === 'All Pathways' ? /^(All Pathways|All call types)$/ : label;
    await this.page.getByRole('option', { name: option, exact: true }).click();
  }

  async setStatus(label: 'Completed' | 'Active' | 'Failed' | 'Transferred' | 'All') {
    await this.page.getByRole('radio', { name: label }).click();
  }

  async goToPage(n: number) {
    await this.pagination.getByRole('button', { name: `Page ${n}` }).click();
  }

  /** Types a page number into the pagination's page box and goes there. */
  async jumpToPage(n: number) {
    await this.pagination.getByLabel('Go to page').fill(String(n));
    await this.pagination.getByRole('button', { name: 'Go' }).click();
  }

  currentPageButton(): Locator {
    return this.pagination.locator('[aria-current="page"]');
  }

  async openSearch() {
    await this.page.getByRole('button', { name: 'Search calls' }).click();
    await expect(this.page.getByRole('searchbox', { name: 'Search calls' })).toBeFocused();
  }

  async search(text: string) {
    await this.page.getByRole('searchbox', { name: 'Search calls' }).fill(text);
  }

  playButton(callId: string): Locator {
    return this.row(callId).locator('[data-playback]');
  }

  async audioState(): Promise<{ paused: boolean; src: string; currentTime: number }> {
    return this.audio.evaluate((el: HTMLAudioElement) => ({
      paused: el.paused,
      src: el.getAttribute('src') ?? '',
      currentTime: el.currentTime,
    }));
  }
}
