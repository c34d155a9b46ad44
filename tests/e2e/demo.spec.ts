/** The public demo: the dashboard's components on the demo tenant, without logging in. */
import { expect, test } from '@playwright/test';
import { DashboardPage } from './pages/dashboard-page';
import { screenshotBothWidths } from './support/screenshots';

test('the demo shows stats, chart, recent activity, filters and a read-only call log without a login', async ({
  page,
}) => {
  const demo = new DashboardPage(page);
  await demo.open('/demo');
  await expect(page.getByRole('heading', { name: 'Call Analytics Dashboard' })).toBeVisible();
  await demo.waitForLog();

  // Stats over the default 7 days.
  await expect(demo.statValue('totalCalls')).toHaveText(/^[1-9][\d,]*$/);
  await expect(demo.statValue('totalCost')).toHaveText(/^\$[\d,]+\.\d{2}$/);
  await expect(demo.statValue('avgDuration')).toHaveText(/^\d+:\d{2}$/);
  await expect(page.getByTestId('stats-strip').getByText('vs last period')).toHaveCount(4);

  const activity = page.getByTestId('recent-activity');
  await expect(activity).toContainText('Recent Activity');
  await expect(activity).toContainText((await demo.statValue('totalCost').textContent()) ?? '');
  await expect(activity).toContainText(/Average Call Duration\s*\d+ seconds/);
  await expect(activity).toContainText(/Success Rate\s*100%/);
  await expect(activity).toContainText(/Active Pathways\s*3/);

  await expect(page.getByTestId('calls-chart').locator('.recharts-line-curve')).toBeVisible();
  const today = new Date().toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
  await expect(page.getByTestId('calls-chart').getByText(today, { exact: true })).toBeVisible();

  // Read-only: no delete, no sync, no sample data.
  await expect(demo.rows).toHaveCount(10);
  await expect(page.getByRole('button', { name: 'Delete call' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Sync calls|Add sample data/ })).toHaveCount(0);
  await expect(demo.pagination).toContainText(/Showing 1 to 10 of [\d,]+ results/);
  await screenshotBothWidths(page, 'demo');

  // Every page is reachable: a window of numbered buttons around the current page, First and Last.
  const total = Number(
    /of ([\d,]+) results/.exec((await demo.pagination.textContent()) ?? '')?.[1].replace(/,/g, ''),
  );
  const lastPage = Math.ceil(total / 10);
  expect(lastPage).toBeGreaterThan(7);
  await demo.jumpToPage(lastPage - 3);
  await expect(demo.currentPageButton()).toHaveText(String(lastPage - 3));
  await expect(demo.pagination.getByRole('button', { name: /^Page \d+$/ })).toHaveCount(5);
  await demo.pagination.getByRole('button', { name: 'Last' }).click();
  await expect(demo.currentPageButton()).toHaveText(String(lastPage));
  await expect(demo.pagination.getByRole('button', { name: 'Next' })).toBeDisabled();
  await demo.pagination.getByRole('button', { name: 'First' }).click();
  await expect(demo.currentPageButton()).toHaveText('1');

  // The demo's own date ranges, and the page resets when one changes.
  await demo.goToPage(3);
  await expect(demo.currentPageButton()).toHaveText('3');
  await page.getByRole('combobox', { name: 'Date Range' }).click();
  for (const label of ['Last 24 hours', 'Last 7 days', 'Last 30 days', 'Last 90 days']) {
    await expect(page.getByRole('option', { name: label, exact: true })).toBeVisible();
  }
  await expect(page.getByRole('option', { name: 'Last 2 months' })).toHaveCount(0);
  const sevenDayTotal = (await demo.statValue('totalCalls').textContent()) ?? '';
  await page.getByRole('option', { name: 'Last 30 days', exact: true }).click();
  await expect(demo.currentPageButton()).toHaveText('1');
  await expect(demo.statValue('totalCalls')).not.toHaveText(sevenDayTotal);

  await demo.setStatus('Active');
  await expect(demo.rows.first()).toBeVisible();
  await expect(demo.rows.locator('td:nth-child(4)').filter({ hasNotText: 'active' })).toHaveCount(0);
  await demo.setStatus('Completed');

  await demo.selectPathway('Booking');
  await expect(demo.rows.first()).toBeVisible();
  await expect(demo.rows.locator('td:nth-child(6)').filter({ hasNotText: 'Booking' })).toHaveCount(0);

  // Transcripts and recordings work on the demo too.
  const [first] = await demo.rowIds();
  await demo.row(first).getByRole('button', { name: 'Show transcript' }).click();
  await expect(demo.transcripts).toContainText('AI Agent');
  const playable = demo.rows.locator('[data-playback]:not([disabled])').first();
  await playable.click();
  await expect(playable).toHaveAttribute('data-playback', 'playing');
  expect((await demo.audioState()).paused).toBe(false);
  await playable.click();
  await expect(playable).toHaveAttribute('data-playback', 'idle');
});

test('/demo-dashboard is the same page', async ({ page }) => {
  const demo = new DashboardPage(page);
  await demo.open('/demo-dashboard');
  await demo.waitForLog();
  await expect(demo.rows.first()).toBeVisible();
  await expect(page.getByTestId('recent-activity')).toBeVisible();
});

test('the last 24 hours are charted per hour, with a tooltip naming the hour and its calls', async ({
  page,
}) => {
  const demo = new DashboardPage(page);
  await demo.open('/demo');
  await demo.waitForLog();
  const chartRequest = page.waitForRequest((r) => r.url().includes('/api/demo/calls-over-time?'));
  await demo.selectDateRange('Last 24 hours');
  const params = new URL((await chartRequest).url()).searchParams;
  expect(params.get('interval')).toBe('hour');
  expect(params.get('startDate')).toBeTruthy();

  const chart = page.getByTestId('calls-chart');
  await expect(chart.getByText(/^\d{1,2} (AM|PM)$/).first()).toBeVisible();
  await expect(chart.getByText(/^[A-Z][a-z]{2} \d{1,2}$/)).toHaveCount(0);
  // Hovering the middle of the plot shows one point's hour and count in the styled tooltip.
  await chart.scrollIntoViewIfNeeded();
  const plot = await chart.locator('.recharts-cartesian-grid').boundingBox();
  expect(plot).toBeTruthy();
  await page.mouse.move((plot?.x ?? 0) + (plot?.width ?? 0) / 2, (plot?.y ?? 0) + (plot?.height ?? 0) / 2);
  await expect(chart.getByText(/^[A-Z][a-z]{2} \d{1,2}, \d{1,2} (AM|PM) – \d{1,2} (AM|PM)$/)).toBeVisible();
  await expect(
    chart.getByText(/^calls? completed$/).or(chart.getByText(/^\d[\d,]* calls? completed$/)),
  ).toBeVisible();
  await screenshotBothWidths(page, 'demo-24-hours');
});
