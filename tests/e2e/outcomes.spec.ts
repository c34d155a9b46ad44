/**
 * Issue 13's walk-through in Chromium: a clinic whose agent books appointments reads how many
 * calls booked one and what they were worth, sees which calls need a call-back, opens one, hears
 * it from the moment the caller asked (the transcript follows the recording), marks it handled,
 * and sends a link to that moment that only someone allowed to see the call can open.
 */
import { expect, type Page, test } from '@playwright/test';
import { DEFAULT_OUTCOMES } from '../../src/contract/outcomes';
import { clientSession, loginClientApi, placeTestCall } from './support/api';
import { expectNoSeriousA11yViolations } from './support/axe';
import { CLIENT, OUTCOMES_CLIENT } from './support/env';
import { screenshotBothWidths } from './support/screenshots';

test.describe.configure({ mode: 'serial', timeout: 90_000 });

const BOOKED = {
  name: 'Booked appointment',
  color: '#16a34a',
  value: 120,
  needsAttention: false,
  notify: false,
  rules: [{ field: 'disposition_tag', op: 'equals', value: 'APPOINTMENT_BOOKED' }],
};

/** A conversation with a line every two seconds (the stand-in's recording is ~8 s long). */
function callbackTranscript(start: number) {
  const lines: [string, string][] = [
    ['assistant', 'Thanks for calling Bright Smile, this is Ava. How can I help?'],
    ['user', 'Hi, I wanted to move my cleaning appointment.'],
    ['assistant', 'Of course. Which day works better for you?'],
    ['user', "I'm driving right now, can you call me back tomorrow morning?"],
  ];
  return lines.map(([user, text], i) => ({
    id: i + 1,
    created_at: new Date(start + i * 2000).toISOString(),
    text,
    user,
  }));
}

let callbackCallId = '';

async function waitForReclassification(page: Page) {
  await expect
    .poll(async () => (await (await page.request.get('/api/client/outcomes')).json()).reclassification.state)
    .not.toBe('running');
}

test.beforeEach(async ({ page }) => {
  await loginClientApi(page, OUTCOMES_CLIENT.email, OUTCOMES_CLIENT.password);
});

test('the strip says what the calls achieved and were worth; a card filters the log', async ({ page }) => {
  const saved = await page.request.put('/api/client/outcomes', {
    data: { outcomes: [BOOKED, ...DEFAULT_OUTCOMES] },
  });
  expect(saved.status()).toBe(200);
  await waitForReclassification(page);

  const { webhookUrl } = await clientSession(page.request);
  for (let i = 0; i < 3; i++)
    await placeTestCall(page.request, webhookUrl, OUTCOMES_CLIENT.apiKey, {
      status: 'completed',
      answered_by: 'human',
      disposition_tag: 'APPOINTMENT_BOOKED',
      summary: 'The caller booked a cleaning for Friday at 9 AM.',
    });
  await placeTestCall(page.request, webhookUrl, OUTCOMES_CLIENT.apiKey, {
    status: 'completed',
    answered_by: 'voicemail',
  });
  const callback = await placeTestCall(page.request, webhookUrl, OUTCOMES_CLIENT.apiKey, {
    status: 'completed',
    answered_by: 'human',
    corrected_duration: '8',
    disposition_tag: 'CALLBACK_REQUESTED',
    summary: 'The caller asked for a call back tomorrow morning to move an appointment.',
    variables: { preferred_time: 'tomorrow morning' },
    transcripts: callbackTranscript(Date.now() - 60_000),
  });
  const list = await (await page.request.get('/api/client/calls?status=all&limit=100')).json();
  callbackCallId = list.calls.find(
    (c: { providerCallId: string }) => c.providerCallId === callback.call_id,
  ).id;

  await page.goto('/dashboard');
  const strip = page.getByTestId('outcomes-strip');
  const booked = strip.locator('[data-outcome="Booked appointment"]');
  await expect(booked.getByTestId('outcome-count')).toHaveText('3');
  await expect(booked.getByTestId('outcome-value')).toHaveText('$360.00');
  await expect(booked).toContainText('60% of calls');
  await expect(page.getByTestId('outcomes-value')).toHaveText('$360.00 in booked appointments');
  await expect(strip.locator('[data-outcome="Voicemail"]').getByTestId('outcome-count')).toHaveText('1');
  await expect(page.getByTestId('outcomes-chart')).toBeVisible();
  await screenshotBothWidths(page, 'outcomes-dashboard');

  // A card narrows the log to its outcome; pressing it again shows every outcome.
  await booked.getByRole('button').click();
  await expect(booked.getByRole('button')).toHaveAttribute('aria-pressed', 'true');
  const log = page.getByTestId('call-log');
  await expect(log.getByTestId('call-row')).toHaveCount(3);
  await expect(log.getByTestId('call-outcome').filter({ hasNotText: 'Booked appointment' })).toHaveCount(0);
  await booked.getByRole('button').click();
  await expect(log.getByTestId('call-row')).toHaveCount(5);
});

test('needs attention: the badge, the drawer in step with the recording, keys, speeds, and Mark handled', async ({
  page,
}) => {
  await page.goto('/dashboard');
  const badge = page.getByTestId('attention-button');
  await expect(badge).toHaveAccessibleName('1 call needs attention');
  await badge.click();
  const panel = page.getByTestId('attention-panel');
  await expect(panel).toBeFocused();
  const item = panel.getByTestId('attention-call');
  await expect(item).toContainText('The caller asked for a call-back');

  await item.getByRole('button', { name: 'Open' }).click();
  const drawer = page.getByTestId('call-detail');
  await expect(drawer.getByTestId('call-summary')).toHaveText(
    'The caller asked for a call back tomorrow morning to move an appointment.',
  );
  await expect(drawer.getByTestId('call-variables')).toContainText('tomorrow morning');
  expect(new URL(page.url()).searchParams.get('call')).toBe(callbackCallId);

  // Click the caller's request: the recording seeks there and that line is the spoken one.
  const audio = drawer.getByTestId('detail-audio');
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.readyState)).toBeGreaterThan(0);
  const lines = drawer.getByTestId('transcript-line');
  await expect(lines).toHaveCount(4);
  await lines.nth(3).click();
  await expect(lines.nth(3)).toHaveAttribute('aria-current', 'true');
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThanOrEqual(6);
  await drawer.getByRole('button', { name: 'Pause' }).click();

  // Keys: the arrows move five seconds, space plays and pauses; speeds apply to the audio.
  await drawer.getByTestId('call-summary').click();
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeLessThan(3);
  await expect(lines.nth(0).or(lines.nth(1)).and(page.locator('[aria-current="true"]'))).toHaveCount(1);
  await page.keyboard.press(' ');
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.paused)).toBe(false);
  await page.keyboard.press(' ');
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.paused)).toBe(true);
  await drawer.getByRole('radio', { name: '2×' }).click();
  expect(await audio.evaluate((a: HTMLAudioElement) => a.playbackRate)).toBe(2);

  await expectNoSeriousA11yViolations(page, 'call detail drawer (desktop)');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/screens/call-detail-phone.png' });
  await expectNoSeriousA11yViolations(page, 'call detail drawer (phone)');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: 'test-results/screens/call-detail-desktop.png' });

  await drawer.getByRole('button', { name: 'Mark handled' }).click();
  await expect(drawer.getByTestId('handled-note')).toContainText(`Handled by ${OUTCOMES_CLIENT.email}`);
  await expect(badge).toHaveCount(0);
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toBeHidden();
  expect(new URL(page.url()).searchParams.has('call')).toBe(false);
  await expect(panel).toContainText('Nothing needs a person right now.');
});

test('a link to a moment opens the call there, and only for someone allowed to see it', async ({
  page,
  browser,
}) => {
  await page.goto(`/dashboard?call=${encodeURIComponent(callbackCallId)}&t=6`);
  const drawer = page.getByTestId('call-detail');
  const audio = drawer.getByTestId('detail-audio');
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThanOrEqual(6);
  await expect(drawer.getByTestId('transcript-line').nth(3)).toHaveAttribute('aria-current', 'true');
  await expect(drawer.getByTestId('detail-clock')).toContainText('0:06');

  // "Copy link at this moment" gives the same kind of link.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await drawer.getByRole('button', { name: 'Copy link at this moment' }).click();
  await expect(drawer.getByRole('button', { name: 'Copied!' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(new RegExp(`/dashboard\\?call=${callbackCallId}&t=\\d+$`));

  // Another client with the link sees nothing of the call.
  const other = await browser.newPage();
  await loginClientApi(other, CLIENT.email, CLIENT.password);
  await other.goto(copied);
  await expect(other.getByTestId('call-detail')).toContainText('Call not found');
  await expect(other.getByTestId('call-detail')).not.toContainText('call back tomorrow');
  await other.close();
});

test('Settings › Outcomes: add an outcome, preview it on the last 30 days, move it first, save and re-classify', async ({
  page,
}) => {
  await page.goto('/settings?tab=outcomes');
  const editors = page.getByTestId('outcome-editor');
  await expect(editors).toHaveCount(DEFAULT_OUTCOMES.length + 1);
  await page.getByRole('button', { name: 'Add outcome' }).click();
  const added = editors.last();
  await added.getByLabel('Name').fill('Call-back requested');
  await added.getByLabel('Value per call ($)').fill('15');
  await added.getByLabel('Needs attention').click();
  await added.getByTestId('outcome-rule').getByLabel('Value').fill('CALLBACK_REQUESTED');

  // A bad value is named beside its input and blocks the preview and the save.
  await editors.first().getByLabel('Value per call ($)').fill('lots');
  await page.getByRole('button', { name: 'Preview on the last 30 days' }).click();
  await expect(editors.first()).toContainText('A value in dollars, like 120');
  await editors.first().getByLabel('Value per call ($)').fill('120');

  // Last in the list, "Reached a person" takes the call first: the preview says so.
  await page.getByRole('button', { name: 'Preview on the last 30 days' }).click();
  await expect(added.getByTestId('outcome-preview-count')).toHaveText(
    'Would match 0 calls of the last 30 days',
  );
  await expect(editors.first().getByTestId('outcome-preview-count')).toHaveText(
    'Would match 3 calls of the last 30 days',
  );
  await expect(page.getByTestId('outcomes-preview')).toContainText('Of the 5 calls of the last 30 days');

  // First match wins: put it first and look again.
  for (let i = 0; i < DEFAULT_OUTCOMES.length + 1; i++)
    await page.getByRole('button', { name: 'Move Call-back requested up' }).click();
  await expect(editors.first().getByLabel('Name')).toHaveValue('Call-back requested');
  await page.getByRole('button', { name: 'Preview on the last 30 days' }).click();
  await expect(editors.first().getByTestId('outcome-preview-count')).toHaveText(
    'Would match 1 call of the last 30 days',
  );
  await screenshotBothWidths(page, 'settings-outcomes');
  await expectNoSeriousA11yViolations(page, 'settings outcomes tab');
  await page.getByRole('button', { name: 'Save outcomes' }).click();
  await expect(page.getByText('Outcomes saved', { exact: true })).toBeVisible();
  await waitForReclassification(page);

  const saved = await (await page.request.get('/api/client/outcomes')).json();
  expect(saved.outcomes[0]).toMatchObject({ name: 'Call-back requested', value: 15, needsAttention: true });
  await page.goto('/dashboard');
  const card = page.getByTestId('outcomes-strip').locator('[data-outcome="Call-back requested"]');
  await expect(card.getByTestId('outcome-count')).toHaveText('1');
  await expect(page.getByTestId('outcomes-value')).toContainText('$375.00 in value');
});
