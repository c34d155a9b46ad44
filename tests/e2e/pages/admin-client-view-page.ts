/** The admin's view of one client (/admin/client/{id}): header, information card, calls components. */
import { expect, type Locator, type Page } from '@playwright/test';

export class AdminClientViewPage {
  readonly badge: Locator;
  readonly info: Locator;
  readonly callLog: Locator;
  readonly callRows: Locator;
  readonly chart: Locator;
  /** The client's users. */
  readonly users: Locator;

  constructor(readonly page: Page) {
    this.badge = page.getByText('Admin View', { exact: true });
    this.info = page.getByTestId('client-information');
    this.callLog = page.getByTestId('call-log');
    this.callRows = page.getByTestId('call-row');
    this.chart = page.getByTestId('calls-over-time');
    this.users = page.getByTestId('admin-client-users');
  }

  async open(clientId: string) {
    await this.page.goto(`/admin/client/${clientId}`);
  }

  async waitForLoaded() {
    await expect(this.badge).toBeVisible();
    await expect(this.page.getByTestId('calls-loading')).toHaveCount(0);
  }
}
