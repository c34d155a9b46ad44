/**
 * The monthly report from the dashboard: a client picks a month and downloads its PDF.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { loginAsNewClient } from './pages/settings-page';
import { expectNoSeriousA11yViolations } from './support/axe';

test('a client downloads last month’s report as a PDF from the dashboard', async ({ page, request }) => {
  await loginAsNewClient(page, request, 'report');
  await page.goto('/dashboard');
  const month = page.getByLabel('Report month');
  await expect(month).toBeVisible();
  const options = await month.locator('option').allTextContents();
  expect(options).toHaveLength(12);
  expect(options[0]).toMatch(/\(so far\)$/);
  await expectNoSeriousA11yViolations(page, 'dashboard with the report download');

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Monthly report (PDF)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^report-\d{4}-\d{2}\.pdf$/);
  const bytes = readFileSync((await file.path())!);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
});
