import { expect, type Page } from '@playwright/test';

/** The notification region holds one toast at a time (SPEC §9); assert its title and text. */
export async function expectToast(page: Page, title: string, description?: string | RegExp) {
  const toast = page
    .locator('[data-radix-toast-announce-exclude], li[role="status"], [role="status"]')
    .filter({ hasText: title })
    .first();
  await expect(toast).toBeVisible();
  if (description) await expect(toast).toContainText(description);
}
