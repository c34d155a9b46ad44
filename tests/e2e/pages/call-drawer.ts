/** The call detail drawer (opened with `?call=ID`) and its "Show number" action. */
import { expect, type Locator, type Page } from '@playwright/test';

export class CallDrawer {
  readonly root: Locator;
  readonly title: Locator;
  readonly showNumber: Locator;
  readonly copyNumber: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('call-detail');
    this.title = this.root.getByRole('heading').first();
    this.showNumber = this.root.getByRole('button', { name: 'Show number' });
    this.copyNumber = this.root.getByRole('button', { name: /Copy number|Copied!/ });
  }

  async open(callId: string) {
    await this.page.goto(`/dashboard?call=${encodeURIComponent(callId)}`);
    await expect(this.title).toContainText('Call from');
  }
}
