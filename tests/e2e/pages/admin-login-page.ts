import { expect, type Locator, type Page } from '@playwright/test';

export class AdminLoginPage {
  readonly username: Locator;
  readonly password: Locator;
  readonly submit: Locator;

  constructor(readonly page: Page) {
    this.username = page.getByLabel(/username/i);
    this.password = page.getByLabel(/password/i).first();
    this.submit = page.getByRole('button', { name: /^Sign In/ });
  }

  async open() {
    await this.page.goto('/admin-login');
    await expect(this.submit).toBeVisible();
  }

  async login(username: string, password: string) {
    await this.username.fill(username);
    await this.password.fill(password);
    await this.submit.click();
  }
}
