/**
 * Issue 15 as a client does it: search the transcripts and see why each call matched, narrow to a
 * custom range, sort, share the view by its link, choose the columns, and take the calls out as a
 * spreadsheet.
 */
import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { onboardClient } from './pages/settings-page';
import { loginClientApi, placeTestCall } from './support/api';
import { expectNoSeriousA11yViolations } from './support/axe';
import { ADMIN } from './support/env';

const said = (...lines: string[]) =>
  lines.map((text, i) => ({
    id: i + 1,
    text,
    user: i % 2 ? 'user' : 'assistant',
    created_at: new Date().toISOString(),
  }));

const rows = (page: Page) => page.getByTestId('call-row');

test('a client finds calls by what was said, shares the view by its link, and exports it', async ({
  page,
  request,
  browser,
}) => {
  const client = await onboardClient(request, 'find');
  for (const transcripts of [
    said('Hello, thanks for calling.', 'I want to ask about your refund policy for damaged produce.'),
    said('Good morning.', 'My order arrived late, can I get a refund?', 'Yes, a refund is on its way.'),
    said('Hello!', 'I would like to book a delivery for Tuesday.'),
  ])
    await placeTestCall(request, client.webhookUrl, undefined, { transcripts, status: 'completed' });
  await loginClientApi(page, client.email, client.password);

  await page.goto('/dashboard?status=all');
  await expect(rows(page)).toHaveCount(4); // the onboarding test call and the three above
  await page
    .getByRole('button', { name: /search/i })
    .first()
    .click();
  await page.getByRole('searchbox', { name: 'Search calls' }).fill('refund');
  await expect(rows(page)).toHaveCount(2);
  await expect(page).toHaveURL(/[?&]q=refund/);
  const snippets = page.getByTestId('search-snippet');
  await expect(snippets).toHaveCount(2);
  await expect(snippets.first().locator('mark').first()).toHaveText(/refund/i);
  await expectNoSeriousA11yViolations(page, 'the call log with search results');

  // Sort by duration: a history entry of its own, undone by Back.
  await page.getByRole('searchbox', { name: 'Search calls' }).fill('');
  await expect(rows(page)).toHaveCount(4);
  await page.getByRole('button', { name: 'Duration', exact: true }).click();
  await expect(page).toHaveURL(/sort=duration&order=desc/);
  const durations = await rows(page).locator('td:nth-child(5)').allTextContents();
  const seconds = durations.map((d) => d.split(':').reduce((m, s) => m * 60 + Number(s), 0));
  expect([...seconds].sort((a, b) => b - a)).toEqual(seconds);
  await page.getByRole('button', { name: 'Duration', exact: true }).click();
  await expect(page).toHaveURL(/sort=duration&order=asc/);
  await page.goBack();
  await expect(page).toHaveURL(/sort=duration&order=desc/);

  // A custom range, counted in the account's zone, shown with it.
  await page.getByLabel('Date Range').click();
  await page.getByRole('option', { name: 'Custom range…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Custom range' });
  await expect(dialog).toContainText('UTC');
  await expectNoSeriousA11yViolations(page, 'the custom range dialog');
  const today = new Date().toISOString().slice(0, 10);
  await dialog.getByLabel('From', { exact: true }).fill(today);
  await dialog.getByLabel('To', { exact: true }).fill(today);
  await dialog.getByRole('button', { name: 'Apply range' }).click();
  await expect(page).toHaveURL(new RegExp(`from=${today}&to=${today}`));
  await expect(page.getByTestId('range-window')).toHaveText(/, whole days \(UTC\)$/);
  await expect(rows(page)).toHaveCount(4);

  // The link opens the same view in another browser signed in as the same client.
  const link = page.url();
  const other = await browser.newContext();
  const colleague = await other.newPage();
  await loginClientApi(colleague, client.email, client.password);
  await colleague.goto(link);
  await expect(rows(colleague)).toHaveCount(4);
  await expect(colleague.getByLabel('Date Range')).toContainText(/–|,/);
  expect(await rows(colleague).locator('td:nth-child(1)').allTextContents()).toEqual(
    await rows(page).locator('td:nth-child(1)').allTextContents(),
  );
  await other.close();

  // Columns: hiding Call type (SPEC's Pathway, unnamed for this client) is remembered for this person, across a reload.
  await page.getByRole('button', { name: 'Columns' }).click();
  const chooser = page.getByRole('dialog', { name: 'Columns' });
  await expect(chooser.getByRole('button', { name: 'Save columns' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the columns dialog');
  await chooser.getByLabel('Call type').click();
  await chooser.getByRole('button', { name: 'Save columns' }).click();
  await expect(page.getByRole('columnheader', { name: 'Call type' })).toHaveCount(0);
  await page.reload();
  await expect(rows(page)).toHaveCount(4);
  await expect(page.getByRole('columnheader', { name: 'Call type' })).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: 'Cost' })).toBeVisible();

  // Export the view: a CSV a spreadsheet program reads, one row per call of the view.
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export these calls as CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^calls-\d{4}-\d{2}-\d{2}\.csv$/);
  const records: Record<string, string>[] = parse(readFileSync((await file.path()) ?? ''), {
    bom: true,
    columns: true,
  });
  expect(records).toHaveLength(4);
  expect(records.map((r) => Number(r['Duration (seconds)']))).toEqual(
    [...records.map((r) => Number(r['Duration (seconds)']))].sort((a, b) => b - a),
  );
  for (const r of records) expect(r['Cost (USD)']).toMatch(/^\d+\.\d{2}$/);
});

test('the call log at phone width: sort select, export and snippets in cards', async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const client = await onboardClient(request, 'find-phone');
  await placeTestCall(request, client.webhookUrl, undefined, {
    transcripts: said('Hello.', 'Please cancel my subscription today.'),
    status: 'completed',
  });
  await loginClientApi(page, client.email, client.password);
  await page.goto('/dashboard?status=all&q=subscription');
  await expect(page.getByRole('searchbox', { name: 'Search calls' })).toHaveValue('subscription');
  await expect(page.getByTestId('call-card')).toHaveCount(1);
  await expect(page.getByTestId('search-snippet').locator('mark')).toHaveText('subscription');
  // Newest first with a search too; best match is one choice away.
  await expect(page.getByLabel('Sort')).toHaveValue('created:desc');
  await page.getByLabel('Sort').selectOption('cost:asc');
  await expect(page).toHaveURL(/sort=cost&order=asc/);
  await expect(page.getByRole('link', { name: 'Export these calls as Excel' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the call log on a phone');
});

test('a common word lists the newest match first of "1,000+"; Best match puts the best passage first', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const client = await onboardClient(request, 'find-many');
  // 1,000 calls that mention a parcel once with the best match among them (Best match ranks the
  // newest 1,000 matches), and the newest last.
  const onceEach = async (from: number, to: number) => {
    for (let i = from; i < to; i += 20)
      await Promise.all(
        Array.from({ length: Math.min(20, to - i) }, (_, j) =>
          placeTestCall(request, client.webhookUrl, undefined, {
            transcripts: said(
              'Hello, how can I help?',
              `Where is my parcel number ${i + j}? It has not come yet.`,
            ),
            status: 'completed',
          }),
        ),
      );
  };
  await onceEach(0, 500);
  await placeTestCall(request, client.webhookUrl, undefined, {
    transcripts: said('Parcel, parcel, parcel.', 'Yes, the parcel.'),
    status: 'completed',
  });
  await onceEach(500, 1_000);
  await placeTestCall(request, client.webhookUrl, undefined, {
    transcripts: said('Good afternoon.', 'The newest parcel question of the day.'),
    status: 'completed',
  });
  await loginClientApi(page, client.email, client.password);
  await page.goto('/dashboard?status=all&q=parcel');
  await expect(page.getByTestId('pagination')).toContainText(/Showing 1 to \d+ of 1,000\+ results/);
  await expect(page.getByTestId('search-snippet').first()).toContainText('The newest parcel question');
  await expect(page.getByLabel('Sort')).toHaveValue('created:desc');
  await expectNoSeriousA11yViolations(page, 'a search of 1,000+ calls');
  // Best match, chosen by keyboard: the call that says it four times comes first.
  await page.getByLabel('Sort').focus();
  await page.keyboard.press('ArrowDown');
  await expect(page).toHaveURL(/sort=relevance/);
  await expect(page.getByTestId('search-snippet').first().locator('mark')).toHaveCount(4);
  await expect(page.getByTestId('pagination')).toContainText('of 1,000+ results');
});

test('an admin searches a client’s calls and exports what was found', async ({ page, request }) => {
  const client = await onboardClient(request, 'find-admin');
  await placeTestCall(request, client.webhookUrl, undefined, {
    transcripts: said('Hello.', 'The invoice shows a late fee I did not expect.'),
    status: 'completed',
  });
  const login = await page.request.post('/api/admin/login', {
    data: { username: ADMIN.username, password: ADMIN.password },
  });
  expect(login.status()).toBe(200);
  await page.goto(`/admin/client/${client.id}?status=all`);
  await expect(rows(page)).toHaveCount(2);
  const box = page.getByRole('searchbox', { name: 'Search calls' });
  await expect(box).not.toBeFocused();
  await page.getByRole('button', { name: 'Duration', exact: true }).click();
  await expect(page).toHaveURL(/sort=duration/);
  await box.fill('invoice');
  await expect(rows(page)).toHaveCount(1);
  await expect(page).toHaveURL(/[?&]q=invoice/);
  await expect(page.getByTestId('search-snippet').locator('mark')).toHaveText('invoice');
  const href = await page.getByRole('link', { name: 'Export these calls as Excel' }).getAttribute('href');
  expect(href).toContain(`/api/admin/clients/${client.id}/calls/export?`);
  expect(href).toContain('search=invoice');
  // Back to the view before the sort (a typed search replaces its entry): the box follows the URL.
  await page.goBack();
  await expect(page).not.toHaveURL(/sort=|q=/);
  await expect(box).toHaveValue('');
  await expect(rows(page)).toHaveCount(2);
  await expectNoSeriousA11yViolations(page, 'the admin client view with its search box');
});
