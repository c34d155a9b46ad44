import type { Page } from '@playwright/test';

/** Lets entry animations (dialogs, toasts) finish, so screenshots show the resting layout. */
export async function settle(page: Page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (a) =>
          a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Number.POSITIVE_INFINITY,
      ),
  );
}

/** Screenshots a person looks at: desktop and phone widths, saved under test-results/screens. */
export async function screenshotBothWidths(page: Page, name: string) {
  for (const [label, width] of [
    ['desktop', 1280],
    ['phone', 390],
  ] as const) {
    await page.setViewportSize({ width, height: label === 'desktop' ? 900 : 844 });
    await settle(page);
    await page.screenshot({ path: `test-results/screens/${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
