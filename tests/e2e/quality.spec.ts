/**
 * Conversation quality as a client and the agency see it, on calls stored through the
 * real calls store with known figures (support/quality-seed.ts, computed by hand there): the Quality
 * tab's medians against the period before, a worst call opening the drawer at its moment, the
 * drawer's figures and the transcript's marks, an order-only call saying what it cannot measure,
 * the 6-second silence in Needs attention and the log's quality filters and column, and saved
 * thresholds changing Needs attention. Axe on the tab, the drawer and the thresholds card;
 * screenshots at both widths; the tab, the worst calls and the thresholds by keyboard.
 */
import { expect, type Page, test } from '@playwright/test';
import { DashboardPage } from './pages/dashboard-page';
import { DrawerQuality, QualityTab, QualityThresholds } from './pages/quality-tab';
import { loginClientApi } from './support/api';
import { expectNoSeriousA11yViolations } from './support/axe';
import { ADMIN } from './support/env';
import { QUALITY_CALLS, QUALITY_CLIENT } from './support/quality-seed';
import { screenshotBothWidths } from './support/screenshots';
import { expectToast } from './support/toast';

test.describe.configure({ mode: 'serial' });

/** The stored id of a seeded call, by its provider call id. */
async function callIdOf(page: Page, providerCallId: string): Promise<string> {
  const answer = await page.request.get('/api/client/calls?status=all&limit=100');
  expect(answer.status()).toBe(200);
  const { calls } = (await answer.json()) as { calls: { id: string; providerCallId: string }[] };
  const call = calls.find((c) => c.providerCallId === providerCallId);
  if (!call) throw new Error(`no seeded call ${providerCallId}`);
  return call.id;
}

async function signIn(page: Page) {
  await loginClientApi(page, QUALITY_CLIENT.email, QUALITY_CLIENT.password);
}

test('the Quality tab shows the period’s medians against the period before, by keyboard', async ({
  page,
}) => {
  await signIn(page);
  const dashboard = new DashboardPage(page);
  await dashboard.open();
  const quality = new QualityTab(page);
  await expect(quality.callsTab).toHaveAttribute('aria-selected', 'true');
  // The tabs are reached and switched by keyboard (arrow keys move between them).
  await quality.callsTab.focus();
  await page.keyboard.press('ArrowRight');
  await expect(quality.tab).toBeFocused();
  await expect(quality.tab).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/[?&]view=quality/);
  await quality.waitForFigures();

  await expect(quality.period).toContainText('4 calls measured');
  await expect(quality.median('responseLatencyP50Ms')).toHaveText('2.0 s');
  await expect(quality.p90('responseLatencyP50Ms')).toHaveText('4.5 s');
  await expect(quality.change('responseLatencyP50Ms')).toHaveText('no change');
  await expect(quality.median('responseLatencyP90Ms')).toHaveText('2.5 s');
  await expect(quality.p90('responseLatencyP90Ms')).toHaveText('6.0 s');
  await expect(quality.change('responseLatencyP90Ms')).toHaveText('−0.5 s');
  await expect(quality.change('responseLatencyP90Ms')).toHaveAttribute('data-trend', 'better');
  await expect(quality.card('responseLatencyP90Ms')).toContainText('better than the previous period');
  await expect(quality.median('interruptionsCaller')).toHaveText('1');
  await expect(quality.change('interruptionsCaller')).toHaveText('+1');
  await expect(quality.change('interruptionsCaller')).toHaveAttribute('data-trend', 'worse');
  await expect(quality.median('deadAirLongestMs')).toHaveText('0 s');
  await expect(quality.p90('deadAirLongestMs')).toHaveText('6.0 s');
  // In plain words: the slow-answer threshold in seconds, no p90 or talk/listen left unexplained.
  await expect(quality.card('responseLatencyP90Ms')).toContainText('1 call in 10: 6.0 s or more');
  await expect(quality.card('responseLatencyP90Ms')).toContainText('From 3.5 s a call needs attention.');
  await expect(quality.card('talkListenRatio')).toContainText('Agent vs. caller talk');
  await expect(quality.panel).not.toContainText('p90');
  await expect(quality.panel).not.toContainText(/talk\/listen/i);
  await expect(quality.change('deadAirLongestMs')).toHaveText('−3.0 s');

  for (const precision of ['word', 'message', 'segment', 'approx'] as const)
    await expect(quality.precisionCalls(precision)).toHaveText('1 call (25%)');
  await expect(quality.distribution('responseLatencyP90Ms')).toHaveText([
    /Under 1 s\s*0 calls/,
    /1–2 s\s*1 call\b/,
    /2–3\.5 s\s*1 call\b/,
    /3\.5–5 s\s*0 calls/,
    /5–10 s\s*1 call\b/,
    /10 s or more\s*0 calls/,
  ]);
  await expect(quality.worstCalls('responseLatencyP90Ms')).toHaveCount(3);
  await expect(quality.worstCalls('interruptionsCaller')).toHaveCount(2);
  await expect(quality.worstCalls('deadAirLongestMs')).toHaveCount(1);

  await expectNoSeriousA11yViolations(page, 'the Quality tab');
  await screenshotBothWidths(page, 'quality-tab');

  // A reload keeps the tab; the other period's figures follow the date range.
  await page.reload();
  await expect(quality.tab).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('combobox', { name: 'Date Range' }).click();
  await page.getByRole('option', { name: 'Last 30 days', exact: true }).click();
  await expect(page).toHaveURL(/range=30d/);
  await expect(quality.period).toContainText('5 calls measured');
  await expect(quality.median('responseLatencyP90Ms')).toHaveText('2.5 s');
  await expect(quality.change('responseLatencyP90Ms')).toHaveText('—');

  // The header's "needs attention" goes back to the calls, to their panel.
  await page.getByTestId('attention-button').click();
  await expect(quality.callsTab).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('attention-panel')).toBeFocused();
  await expect(page).not.toHaveURL(/view=quality/);
});

test('a worst call opens the drawer at its moment, with the call’s figures and the transcript’s marks', async ({
  page,
}) => {
  await signIn(page);
  const slow = await callIdOf(page, QUALITY_CALLS.SLOW_SILENT);
  await page.goto('/dashboard?view=quality');
  const quality = new QualityTab(page);
  await quality.waitForFigures();
  const slowest = quality.worstCalls('responseLatencyP90Ms').first();
  await expect(slowest).toContainText('1 in 10 answers took 6.0 s or more');
  await expect(slowest).toHaveAttribute('data-call-id', slow);
  // By keyboard: the worst call's button opens the drawer.
  await slowest.getByRole('button', { name: /^Open at 0:22 the call of / }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`call=${slow}&t=22`));
  const drawer = new DrawerQuality(page);
  await expect(drawer.section).toBeVisible();
  // At 0:22 the caller's "Tuesday instead?" has just ended: the line being spoken.
  await expect(drawer.activeLine).toContainText('could it be Tuesday instead?');

  // One line first, in plain words; every figure behind "Details".
  await expect(drawer.line).toHaveText(
    'Several things to check · slow answers (1 in 10 took 6.0 s or more) · 6.0 s of dead air · answers in 4.5 s',
  );
  await expect(drawer.figure('turns')).toBeHidden();
  await drawer.openDetails();
  await expect(drawer.figure('precision')).toHaveText('Segment timing');
  await expect(drawer.figure('turns')).toHaveText('7');
  await expect(drawer.figure('latency-p50')).toHaveText('4.5 s');
  await expect(drawer.figure('latency-p90')).toHaveText('6.0 s');
  await expect(drawer.figure('latency-max')).toHaveText('6.0 s');
  await expect(drawer.figure('interruptions-caller')).toHaveText('1 time');
  await expect(drawer.figure('interruptions-agent')).toHaveText('0 times');
  await expect(drawer.figure('dead-air-count')).toHaveText('2 times');
  await expect(drawer.figure('dead-air-longest')).toHaveText('6.0 s');
  await expect(drawer.figure('silence')).toHaveText('10%');
  await expect(drawer.figure('agent-talk')).toHaveText('21.3% of the time');
  await expect(drawer.figure('talk-listen')).toHaveText('2.1× as long as the caller');
  await expect(drawer.figure('monologue')).toHaveText('4.8 s');
  await expect(drawer.figure('ended-by')).toHaveText('The caller');
  await expect(drawer.figure('escalated')).toHaveText('No');
  await expect(drawer.figure('sentiment')).toHaveText('Neutral');
  await expect(drawer.note).toHaveCount(0);

  // The marks: the interruption on the line that cut in, the slow answers and dead air on the
  // lines that ended each wait, each in words (a screen reader hears the whole sentence).
  await expect(drawer.marks).toHaveCount(5);
  await expect(drawer.transcriptLine('Jordan Lee').getByTestId('transcript-mark')).toHaveText(
    /Caller interrupted.*the caller spoke over the agent for 0\.5 s/,
  );
  await expect(drawer.transcriptLine('Thank you, Jordan').getByTestId('transcript-mark')).toHaveText([
    /Slow answer · 4\.5 s/,
    /Dead air · 4\.5 s/,
  ]);
  await expect(drawer.transcriptLine('Tuesday at two is free').getByTestId('transcript-mark')).toHaveText([
    /Slow answer · 6\.0 s.*started 6\.0 s after the caller stopped/,
    /Dead air · 6\.0 s.*nobody spoke for 6\.0 s/,
  ]);

  await expectNoSeriousA11yViolations(page, 'the call drawer’s conversation quality');
  await screenshotBothWidths(page, 'quality-drawer');
  await drawer.transcriptLine('Tuesday at two is free').scrollIntoViewIfNeeded();
  await screenshotBothWidths(page, 'quality-drawer-transcript');
  await page.keyboard.press('Escape');
  await expect(drawer.section).toHaveCount(0);
  await expect(page).not.toHaveURL(/call=/);
});

test('an order-only call shows what its timing allows, never a row of —, and says why', async ({ page }) => {
  await signIn(page);
  const id = await callIdOf(page, QUALITY_CALLS.WRONG_NUMBER);
  await page.goto(`/dashboard?call=${id}`);
  const drawer = new DrawerQuality(page);
  await expect(drawer.line).toHaveText('Timing not measured · 3 turns');
  await drawer.openDetails();
  await expect(drawer.figure('precision')).toHaveText('Order only');
  await expect(drawer.figure('turns')).toHaveText('3');
  await expect(drawer.figure('latency-p90')).toHaveCount(0);
  await expect(drawer.figure('interruptions-caller')).toHaveCount(0);
  await expect(drawer.figure('dead-air-longest')).toHaveCount(0);
  await expect(drawer.section.locator('dd').filter({ hasText: /^—$/ })).toHaveCount(0);
  await expect(drawer.figure('ended-by')).toHaveText('The AI agent');
  await expect(drawer.note).toContainText('cannot be measured');
  await expect(drawer.marks).toHaveCount(0);
});

test('the 6-second silence needs attention, the log filters by quality, and saved thresholds change it', async ({
  page,
}) => {
  await signIn(page);
  const slow = await callIdOf(page, QUALITY_CALLS.SLOW_SILENT);
  const dashboard = new DashboardPage(page);
  await dashboard.open();
  await dashboard.waitForLog();
  const attention = page.getByTestId('attention-call');
  await expect(attention).toHaveCount(1);
  await expect(attention).toContainText('Dead air of 6.0 s');
  await expect(attention).toContainText('Slow answers: 1 in 10 took 6.0 s or more');

  // The log's quality filters, kept in the URL.
  await expect(dashboard.rows).toHaveCount(4);
  const filters = page.getByTestId('quality-filters');
  await filters.getByRole('button', { name: 'Dead air (5.0 s or more)' }).click();
  await expect(page).toHaveURL(/deadair=5000/);
  await expect(dashboard.rows).toHaveCount(1);
  await expect(dashboard.row(slow)).toBeVisible();
  await filters.getByRole('button', { name: 'Dead air (5.0 s or more)' }).click();
  await filters.getByRole('button', { name: 'Interrupted' }).click();
  await expect(page).toHaveURL(/interruptions=1/);
  await expect(dashboard.rows).toHaveCount(2);
  const slowAnswers = filters.getByRole('button', { name: 'Slow answers (3.5 s or more)' });
  await expect(slowAnswers).toHaveAttribute(
    'title',
    'Calls where 1 answer in 10 took 3.5 s or more to start',
  );
  await slowAnswers.click();
  await expect(page).toHaveURL(/p90=3500/);
  await expect(dashboard.rows).toHaveCount(1);
  await page.reload();
  await expect(dashboard.rows).toHaveCount(1);
  await expect(filters.getByRole('button', { name: 'Interrupted' })).toHaveAttribute('aria-pressed', 'true');

  // The compact quality column, chosen in the column chooser.
  await page.getByRole('button', { name: 'Columns' }).click();
  const chooser = page.getByRole('dialog', { name: 'Columns' });
  await chooser.getByLabel('Quality').click();
  await chooser.getByRole('button', { name: 'Save columns' }).click();
  await expect(page.getByRole('columnheader', { name: 'Quality' })).toBeVisible();
  await expect(dashboard.row(slow).getByTestId('quality-brief')).toContainText(
    /answers within 6.0 s\s*1 interruption\s*dead air 6.0 s/,
  );
  await screenshotBothWidths(page, 'quality-log');

  // Thresholds, by keyboard: slow answers off, dead air from 7 s.
  await page.goto('/settings?tab=outcomes');
  const thresholds = new QualityThresholds(page);
  await expect(thresholds.value('Dead air')).toHaveValue('5');
  await expect(thresholds.card).toContainText('Default: 3.5 s');
  await expectNoSeriousA11yViolations(page, 'the quality thresholds card');
  await thresholds.check('Slow answers').focus();
  await page.keyboard.press('Space');
  await expect(thresholds.check('Slow answers')).toHaveAttribute('aria-checked', 'false');
  await expect(thresholds.value('Slow answers')).toBeDisabled();
  await thresholds.value('Dead air').fill('2');
  await thresholds.save.focus();
  await page.keyboard.press('Enter');
  await expect(thresholds.card.getByRole('alert')).toHaveText('Enter a number of seconds from 3 to 600');
  await thresholds.value('Dead air').fill('7');
  await thresholds.save.focus();
  await page.keyboard.press('Enter');
  await expectToast(page, 'Quality thresholds saved');
  await thresholds.card.scrollIntoViewIfNeeded();
  await screenshotBothWidths(page, 'quality-thresholds');

  // Once the calls are checked again, the silent call no longer needs attention.
  await expect
    .poll(async () => (await (await page.request.get('/api/client/attention')).json()).total, {
      timeout: 15_000,
    })
    .toBe(0);
  await dashboard.open();
  await expect(page.getByTestId('attention-panel')).toContainText('Nothing needs a person right now.');
  await page.goto('/settings?tab=outcomes');
  await expect(thresholds.check('Slow answers')).toHaveAttribute('aria-checked', 'false');
  await expect(thresholds.value('Dead air')).toHaveValue('7');
});

test('the admin sees the client’s Quality tab and its thresholds', async ({ page }) => {
  const login = await page.request.post('/api/admin/login', {
    data: { username: ADMIN.username, password: ADMIN.password },
  });
  expect(login.status()).toBe(200);
  const clients = (await (await page.request.get('/api/admin/clients')).json()) as {
    id: string;
    email: string;
  }[];
  const client = clients.find((c) => c.email === QUALITY_CLIENT.email);
  if (!client) throw new Error('the quality client is not listed');
  await page.goto(`/admin/client/${client.id}?view=quality`);
  const quality = new QualityTab(page);
  await quality.waitForFigures();
  await expect(quality.median('responseLatencyP90Ms')).toHaveText('2.5 s');
  await page.getByRole('button', { name: 'Show quality thresholds' }).click();
  const thresholds = new QualityThresholds(page);
  await expect(thresholds.value('Caller interruptions')).toHaveValue('3');
  await expectNoSeriousA11yViolations(page, 'the admin’s quality thresholds');
  await screenshotBothWidths(page, 'quality-admin');
});
