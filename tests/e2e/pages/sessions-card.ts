/** Page model of Settings › Security › Sessions: this device and the others, signing them out. */
import { expect, type Locator, type Page } from '@playwright/test';

export class SessionsCardPage {
  readonly card: Locator;
  readonly rows: Locator;
  readonly signOutOthers: Locator;

  constructor(readonly page: Page) {
    this.card = page.getByTestId('sessions-card');
    this.rows = this.card.getByTestId('session-row');
    this.signOutOthers = this.card.getByRole('button', { name: 'Sign out all other sessions' });
  }

  async open() {
    await this.page.goto('/settings?tab=security');
    await expect(this.card.getByText('Sessions', { exact: true })).toBeVisible();
    await expect(this.rows.first()).toBeVisible();
  }

  get thisDevice(): Locator {
    return this.rows.filter({ hasText: 'This device' });
  }

  row(device: string): Locator {
    return this.rows.filter({ hasText: device });
  }
}
