/**
 * axe-core over the page as it is now (WCAG 2.0/2.1 A and AA rules). Serious and critical
 * violations fail the test; each one is listed with the elements it was found on.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export async function expectNoSeriousA11yViolations(page: Page, where: string) {
  // A dialog fading in has, for a moment, text fainter than its final colours: axe must see the end
  // state. Endless animations (the Live badge's pulse) never finish, so they are not waited for.
  // Two frames first: what a click just opened may only start its animation on the next frame.
  await page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    await Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    );
  });
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`,
    );
  expect(serious, `axe-core on ${where}`).toEqual([]);
}
