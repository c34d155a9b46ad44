/**
 * The admin console's Brand tab: the settings form, the images, the live preview and
 * the list of what the contrast guard adjusted. Locators by role and label.
 */
import { expect, type Locator, type Page } from '@playwright/test';

export type BrandImage = 'light logo' | 'dark logo' | 'app icon';

export class BrandTab {
  readonly tab: Locator;
  readonly form: Locator;
  readonly name: Locator;
  readonly primary: Locator;
  readonly primaryPicker: Locator;
  readonly accent: Locator;
  readonly save: Locator;
  readonly discard: Locator;
  readonly preview: Locator;
  readonly adjusted: Locator;

  constructor(readonly page: Page) {
    this.tab = page.getByRole('tab', { name: 'Brand' });
    this.form = page.getByRole('form', { name: 'Brand settings' });
    this.name = this.form.getByLabel(/^Agency name\*?$/);
    this.primary = this.form.getByLabel('Primary colour', { exact: true });
    this.primaryPicker = this.form.getByLabel('Primary colour picker');
    this.accent = this.form.getByLabel('Accent colour', { exact: true });
    this.save = this.form.getByRole('button', { name: 'Save brand' });
    this.discard = this.form.getByRole('button', { name: 'Discard changes' });
    this.preview = page.getByTestId('brand-preview');
    this.adjusted = page.getByTestId('brand-adjusted');
  }

  async open() {
    await this.tab.click();
    await expect(this.name).toBeVisible();
  }

  field(label: string): Locator {
    return this.form.getByLabel(label, { exact: true });
  }

  /** One image's block: its swatch, file input, hint and Remove button. */
  image(which: BrandImage): Locator {
    const title = which.charAt(0).toUpperCase() + which.slice(1);
    return this.page.getByRole('region', { name: title, exact: true });
  }

  fileInput(which: BrandImage): Locator {
    return this.page.getByLabel(`Upload ${which}`);
  }

  thumbnail(which: BrandImage): Locator {
    return this.image(which).getByRole('img', { name: `Current ${which}` });
  }

  /** A chosen file shown before the save, and the note that it is not saved yet. */
  stagedThumbnail(which: BrandImage): Locator {
    return this.image(which).getByRole('img', { name: `New ${which}, not saved` });
  }

  stagedNote(which: BrandImage): Locator {
    return this.image(which).getByTestId(/^brand-image-.*-staged$/);
  }

  /** Chooses a file: held by the editor until Save brand. */
  async upload(which: BrandImage, file: { name: string; mimeType: string; buffer: Buffer }) {
    await this.fileInput(which).setInputFiles(file);
  }

  /** Marks an image for removal at the next Save brand. */
  async remove(which: BrandImage) {
    await this.page.getByRole('button', { name: `Remove ${which}` }).click();
  }

  /** The preview's picture of one thing ("Login page", "E-mail", …). */
  previewOf(label: string): Locator {
    return this.preview.getByRole('figure', { name: label });
  }
}
