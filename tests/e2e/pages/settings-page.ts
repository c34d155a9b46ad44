/**
 * Page model of /settings, plus `onboardClient`: a brand-new client made through the admin API
 * (wizard, test call, finalize, credentials), so specs that change a subscription or a password
 * never depend on each other or on the shared seeded clients.
 */
import { randomUUID } from 'node:crypto';
import {
  type APIRequestContext,
  expect,
  type Locator,
  type Page,
  request as playwrightRequest,
} from '@playwright/test';
import { loginClientApi, placeTestCall } from '../support/api';
import { ADMIN, BASE_URL } from '../support/env';

export interface OnboardedClient {
  id: string;
  email: string;
  password: string;
  webhookUrl: string;
}

export async function onboardClient(request: APIRequestContext, label = 'e2e'): Promise<OnboardedClient> {
  const login = await request.post(`${BASE_URL}/api/admin/login`, {
    data: { username: ADMIN.username, password: ADMIN.password },
  });
  expect(login.status()).toBe(200);
  const email = `${label}-${randomUUID().slice(0, 8)}@example.com`;
  const generated = await request.post(`${BASE_URL}/api/admin/generate-webhook`, {
    data: { firstName: 'Casey', lastName: 'Jordan', email, companyName: 'Fresh Fields LLC' },
  });
  expect(generated.status()).toBe(201);
  const { id, webhookUrl } = await generated.json();
  await placeTestCall(request, webhookUrl);
  expect((await request.post(`${BASE_URL}/api/admin/finalize-client/${id}`)).status()).toBe(200);
  const credentials = await request.post(`${BASE_URL}/api/admin/clients/${id}/generate-credentials`);
  expect(credentials.status()).toBe(200);
  const { temporaryPassword } = await credentials.json();
  // The agency's password opens nothing but the change: the person chooses their own first.
  const password = `own-${temporaryPassword}`;
  const own = await playwrightRequest.newContext({ baseURL: BASE_URL });
  try {
    expect(
      (await own.post('/api/client/login', { data: { email, password: temporaryPassword } })).status(),
    ).toBe(200);
    const changed = await own.post('/api/client/change-password', {
      data: { currentPassword: temporaryPassword, newPassword: password },
    });
    expect(changed.status()).toBe(200);
    // The setup's own session ends here: the tests count the person's sessions from their own sign-in.
    expect((await own.post('/api/client/logout')).status()).toBe(200);
  } finally {
    await own.dispose();
  }
  return { id, email, password, webhookUrl };
}

/** A new client, logged in in the page's browser context. */
export async function loginAsNewClient(
  page: Page,
  request: APIRequestContext,
  label?: string,
): Promise<OnboardedClient> {
  const client = await onboardClient(request, label);
  await loginClientApi(page, client.email, client.password);
  return client;
}

export class SettingsPage {
  readonly heading: Locator;
  readonly backToDashboard: Locator;
  readonly firstName: Locator;
  readonly lastName: Locator;
  readonly email: Locator;
  readonly companyName: Locator;
  readonly jobTitle: Locator;
  readonly phoneNumber: Locator;
  readonly saveAccount: Locator;
  readonly currentPlan: Locator;
  readonly planCards: Locator;
  readonly planSection: Locator;
  readonly cancelButton: Locator;
  readonly changePlanButton: Locator;
  readonly updatePaymentButton: Locator;
  readonly usageBar: Locator;
  readonly savePreferences: Locator;
  readonly apiKeyStatus: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Settings', exact: true });
    this.backToDashboard = page.getByRole('button', { name: 'Back to Dashboard' });
    this.firstName = page.getByLabel('First Name');
    this.lastName = page.getByLabel('Last Name');
    this.email = page.getByRole('textbox', { name: /^Email/ });
    this.companyName = page.getByLabel('Company Name');
    this.jobTitle = page.getByLabel('Job Title');
    this.phoneNumber = page.getByLabel('Phone Number');
    this.saveAccount = page.getByRole('button', { name: 'Save Changes' });
    this.currentPlan = page.locator('[aria-label="Current plan"]');
    this.planSection = page.locator('section[aria-labelledby="available-plans"]');
    this.planCards = this.planSection.getByRole('listitem');
    this.cancelButton = page.getByRole('button', { name: 'Cancel Subscription' });
    this.changePlanButton = page.getByRole('button', { name: 'Change Plan' });
    this.updatePaymentButton = page.getByRole('button', { name: 'Update Payment Method' });
    this.usageBar = page.getByRole('progressbar', { name: 'Minutes used this month' });
    this.savePreferences = page.getByRole('button', { name: 'Save Preferences' });
    this.apiKeyStatus = page.getByTestId('api-key-status');
  }

  async open(query = '') {
    await this.page.goto(`/settings${query}`);
    await expect(this.heading).toBeVisible();
  }

  tab(name: 'Account' | 'Subscription' | 'Notifications' | 'Security' | 'Privacy'): Locator {
    return this.page.getByRole('tab', { name });
  }

  planCard(name: string): Locator {
    return this.planSection.locator(`[aria-label="${name} plan"]`);
  }

  checkbox(label: string): Locator {
    return this.page.getByRole('checkbox', { name: label });
  }

  detail(label: string): Locator {
    return this.currentPlan
      .locator('dl > div')
      .filter({ has: this.page.locator('dt', { hasText: label }) })
      .locator('dd');
  }

  async fillAccount(
    values: Partial<
      Record<'firstName' | 'lastName' | 'email' | 'companyName' | 'jobTitle' | 'phoneNumber', string>
    >,
  ) {
    for (const [field, value] of Object.entries(values)) {
      await (this[field as keyof typeof values] as Locator).fill(value ?? '');
    }
  }

  /** Cancels through the browser's confirmation; `accept` false presses Cancel in it. */
  async cancelSubscription(accept = true): Promise<string> {
    const message = new Promise<string>((resolve) => {
      this.page.once('dialog', async (dialog) => {
        resolve(dialog.message());
        if (accept) await dialog.accept();
        else await dialog.dismiss();
      });
    });
    await this.cancelButton.click();
    return message;
  }
}
