/**
 * Callers' personal data: Settings › Privacy (the client's), the same cards in the
 * admin's client view, and the admin console's Privacy tab (the agency's defaults). Locators by
 * role and label; intent methods for what a person does.
 */
import { type Download, expect, type Locator, type Page } from '@playwright/test';
import { PRIVACY_TEXTS, type RedactionCategory, type RetentionField } from '../../../src/contract/privacy';

/** The redaction and retention form, wherever it is (the client's settings or the agency's defaults). */
export class PrivacyForm {
  readonly save: Locator;

  constructor(readonly root: Locator) {
    this.save = root.getByRole('button', { name: /^Save (privacy settings|defaults)$/ });
  }

  category(category: RedactionCategory): Locator {
    return this.root.getByRole('checkbox', { name: PRIVACY_TEXTS.categories[category] });
  }

  retention(field: RetentionField): Locator {
    return this.root.getByRole('textbox', { name: PRIVACY_TEXTS.retentionFields[field] });
  }

  /** The message under a retention input (its hint, or its error). */
  retentionNote(field: RetentionField): Locator {
    return this.retention(field).locator('xpath=../following-sibling::p[1]');
  }
}

/** The cards of one account's privacy: Settings › Privacy, or the admin's client view once opened. */
export class CallerPrivacyCards {
  readonly form: PrivacyForm;
  readonly progress: Locator;
  readonly platforms: Locator;
  readonly eraseSubject: Locator;
  readonly eraseButton: Locator;
  readonly eraseDialog: Locator;
  /** In the dialog: how many calls go, and the newest few. */
  readonly erasePreviewCount: Locator;
  readonly erasePreviewCalls: Locator;
  readonly erasures: Locator;
  readonly exportPhone: Locator;
  readonly exportButton: Locator;

  constructor(readonly page: Page) {
    this.form = new PrivacyForm(page.getByRole('form', { name: 'Callers’ personal data' }));
    this.progress = page.getByTestId('re-redaction');
    this.platforms = page.getByTestId('platform-settings');
    const erase = page.getByRole('form', { name: PRIVACY_TEXTS.erasureHeading });
    this.eraseSubject = erase.getByLabel('Caller’s phone number or e-mail address');
    this.eraseButton = erase.getByRole('button', { name: 'Erase caller…' });
    this.eraseDialog = page.getByRole('alertdialog', { name: 'Erase this caller?' });
    this.erasePreviewCount = this.eraseDialog.getByTestId('erase-preview-count');
    this.erasePreviewCalls = this.eraseDialog
      .getByRole('list', { name: 'Calls to erase' })
      .getByRole('listitem');
    this.erasures = page.getByTestId('erasure');
    const exportForm = page.getByRole('form', { name: PRIVACY_TEXTS.exportHeading });
    this.exportPhone = exportForm.getByLabel('Caller’s phone number');
    this.exportButton = exportForm.getByRole('button', { name: 'Download (JSON)' });
  }

  /** Fills the caller and opens the confirmation (not yet erased). */
  async askToErase(subject: string) {
    await this.eraseSubject.fill(subject);
    await this.eraseButton.click();
    await expect(this.eraseDialog).toBeVisible();
  }

  async confirmErase() {
    await this.eraseDialog.getByRole('button', { name: PRIVACY_TEXTS.erasureConfirm, exact: true }).click();
    await expect(this.eraseDialog).toBeHidden();
  }

  erasure(text: string | RegExp): Locator {
    return this.erasures.filter({ hasText: text });
  }

  async download(link: Locator): Promise<Download> {
    const download = this.page.waitForEvent('download');
    await link.click();
    return download;
  }

  async exportCaller(phone: string): Promise<Download> {
    await this.exportPhone.fill(phone);
    return this.download(this.exportButton);
  }
}

/** The admin console's Privacy tab: the agency's defaults. */
export class PrivacyDefaultsTab {
  readonly tab: Locator;
  readonly form: PrivacyForm;

  constructor(readonly page: Page) {
    this.tab = page.getByRole('tab', { name: 'Privacy' });
    this.form = new PrivacyForm(page.getByRole('form', { name: 'Privacy defaults' }));
  }

  async open() {
    await this.tab.click();
    await expect(this.form.save).toBeVisible();
  }
}
