/** Settings › Privacy, its first card: the Owner's switch hiding callers' numbers until shown. */
import type { Locator, Page } from '@playwright/test';

export class PrivacyCard {
  readonly root: Locator;
  readonly hideNumbers: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('privacy-card');
    this.hideNumbers = this.root.getByRole('switch', { name: 'Hide callers’ numbers until shown' });
  }
}
