/**
 * The admin dashboard (/admin) with its dialogs: the Create Client wizard, the edit dialog and
 * the delete confirmation. Locators by role and label, intent methods for what a person does.
 */
import { expect, type Locator, type Page } from '@playwright/test';

export interface NewClient {
  firstName: string;
  lastName: string;
  email: string;
  companyName?: string;
  industry?: string;
  companySize?: string;
  phoneNumber?: string;
  companyWebsite?: string;
}

export class AdminDashboardPage {
  readonly createClient: Locator;
  readonly syncAll: Locator;
  readonly logout: Locator;
  readonly search: Locator;
  readonly rows: Locator;
  readonly wizard: Locator;
  readonly editDialog: Locator;
  readonly deleteDialog: Locator;

  constructor(readonly page: Page) {
    this.createClient = page.getByRole('button', { name: 'Create Client' });
    this.syncAll = page.getByRole('button', { name: /Sync All Clients|Syncing\.\.\./ });
    this.logout = page.getByRole('button', { name: 'Logout' });
    this.search = page.getByRole('searchbox', { name: 'Search clients' });
    this.rows = page.getByTestId('client-row');
    this.wizard = page.getByRole('dialog', { name: 'Create New Client' });
    this.editDialog = page.getByRole('dialog', { name: 'Edit Client' });
    this.deleteDialog = page.getByRole('alertdialog', { name: 'Delete Client' });
  }

  async open() {
    await this.page.goto('/admin');
    await this.waitForClients();
  }

  async waitForClients() {
    await expect(this.page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    await expect(this.page.getByLabel('Loading clients')).toHaveCount(0);
  }

  stat(label: 'Total Clients' | 'Total Calls' | 'Total Revenue' | 'Active Clients'): Locator {
    return this.page.getByTestId(`stat-${label.toLowerCase().replace(/ /g, '-')}`);
  }

  row(clientId: string): Locator {
    return this.page.locator(`[data-testid="client-row"][data-client-id="${clientId}"]`);
  }

  rowByText(text: string): Locator {
    return this.rows.filter({ hasText: text });
  }

  async rowAction(row: Locator, action: 'Login as' | 'Generate login credentials for' | 'Edit' | 'Delete') {
    await row.getByRole('button', { name: new RegExp(`^${action} `) }).click();
  }

  /** Generates new credentials for the row's client, through the confirmation; answers the password shown. */
  async generateCredentials(row: Locator): Promise<string> {
    await this.rowAction(row, 'Generate login credentials for');
    const confirm = this.page.getByRole('alertdialog');
    await expect(confirm).toContainText('replaces the Owner’s current password');
    await confirm.getByRole('button', { name: 'Replace password' }).click();
    const shown = this.credentialsDialog;
    await expect(shown).toBeVisible();
    return (await shown.getByLabel('Temporary password', { exact: true }).inputValue()).trim();
  }

  get credentialsDialog(): Locator {
    return this.page.getByRole('dialog', { name: /^Login credentials for / });
  }

  // --- Create Client wizard ------------------------------------------------------------------

  wizardField(label: string): Locator {
    return this.wizard.getByLabel(labelPattern(label));
  }

  async chooseOption(scope: Locator, label: string, option: string) {
    await scope.getByRole('combobox', { name: label }).click();
    await this.page.getByRole('option', { name: option, exact: true }).click();
  }

  async fillClientForm(client: NewClient) {
    await this.wizardField('First Name').fill(client.firstName);
    await this.wizardField('Last Name').fill(client.lastName);
    await this.wizardField('Email').fill(client.email);
    if (client.companyName) await this.wizardField('Company Name').fill(client.companyName);
    if (client.companyWebsite) await this.wizardField('Company Website').fill(client.companyWebsite);
    if (client.phoneNumber) await this.wizardField('Phone Number').fill(client.phoneNumber);
    if (client.industry) await this.chooseOption(this.wizard, 'Industry', client.industry);
    if (client.companySize) await this.chooseOption(this.wizard, 'Company Size', client.companySize);
  }

  async wizardStep(n: 1 | 2 | 3 | 4) {
    await expect(this.wizard.getByText(new RegExp(`^Step ${n} of 4`))).toBeVisible();
  }

  webhookUrlInput(): Locator {
    return this.wizard.getByRole('textbox', { name: 'Webhook URL' });
  }

  wizardButton(name: string | RegExp): Locator {
    return this.wizard.getByRole('button', { name });
  }

  // --- Edit dialog -----------------------------------------------------------------------------

  editField(label: string): Locator {
    return this.editDialog.getByLabel(labelPattern(label));
  }
}

/** A field's label, with or without the required-field asterisk. */
function labelPattern(label: string): RegExp {
  return new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\*?$`);
}
