/** Page model of Settings › Activity: the filters, the lines (table or phone list), the CSV link. */
import { expect, type Locator, type Page } from '@playwright/test';

export class ActivityTabPage {
  readonly heading: Locator;
  readonly person: Locator;
  readonly action: Locator;
  readonly csv: Locator;
  /** The table's rows at desktop width. */
  readonly rows: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByText('Activity', { exact: true }).last();
    this.person = page.getByLabel('Person');
    this.action = page.getByLabel('Action', { exact: true });
    this.csv = page.getByRole('link', { name: 'Download CSV' });
    this.rows = page.getByTestId('activity-row');
  }

  async open() {
    await this.page.goto('/settings?tab=activity');
    await expect(this.csv).toBeVisible();
    await expect(this.rows.first()).toBeVisible();
  }

  row(text: string | RegExp): Locator {
    return this.rows.filter({ hasText: text });
  }
}
