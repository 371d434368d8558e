import { writeFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { PASSWORD } from './folio';

/**
 * `page` fails its test if the CSP refused anything (an inline style or script would be a bug of the
 * build, not of the test) or if the app threw. Helpers read like an editor's actions.
 */
export const test = base.extend<{ allowedCspReports: RegExp[] }>({
  allowedCspReports: [[], { option: true }],
  page: async ({ page, allowedCspReports }, use) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      const text = message.text();
      if (/Content Security Policy|Refused to/i.test(text) && !allowedCspReports.some((r) => r.test(text))) {
        problems.push(text);
      }
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await use(page);
    expect(problems, 'CSP violations or uncaught errors').toEqual([]);
  },
});
export { expect };

export async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** How long the screen must stay without a transition before axe looks at it. */
const SETTLED_MS = 400;
let calls = 0;

/** No serious or critical accessibility violation on the screen as it is now. */
export async function expectAccessible(page: Page) {
  // A notification fading in or out is part-transparent, and axe then measures its text's contrast
  // against the blend; likewise a dialog opening or closing (a Done click just before). Wait until
  // every notification is fully shown (or gone) and no finite CSS transition or animation runs (a
  // spinner's endless one is no blend), and until that has held for SETTLED_MS: a notification that
  // mounts just after a first look (an answer arriving) would otherwise fade in during the analysis.
  await page.waitForFunction(
    ({ settledMs, call }) => {
      const opaque = [...document.querySelectorAll('.mantine-Notification-root')].every((node) => {
        for (let el: Element | null = node; el; el = el.parentElement) {
          if (getComputedStyle(el).opacity !== '1') return false;
        }
        return true;
      });
      const still = document
        .getAnimations()
        .every(
          (a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY,
        );
      // Per call: a time kept from an earlier call saw nothing of what happened since.
      const w = window as unknown as { __folioSettled?: { call: number; since: number } };
      if (!opaque || !still) {
        w.__folioSettled = undefined;
        return false;
      }
      if (w.__folioSettled?.call !== call) w.__folioSettled = { call, since: performance.now() };
      return performance.now() - w.__folioSettled.since >= settledMs;
    },
    { settledMs: SETTLED_MS, call: ++calls },
    { timeout: 10_000 },
  );
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

/**
 * A screenshot to look at: each run writes dashboard/test-results/screenshots/ (ignored by git), so
 * `npm test` leaves the tree as it found it. The committed references in test/screenshots/ (linked
 * from the READMEs) change only on purpose: FOLIO_REFERENCE_SCREENSHOTS=1 writes them as well.
 */
export async function screenshot(page: Page, name: string) {
  const shot = await page.screenshot({
    path: new URL(`../../test-results/screenshots/${name}.png`, import.meta.url).pathname,
    fullPage: true,
  });
  if (process.env.FOLIO_REFERENCE_SCREENSHOTS === '1') {
    writeFileSync(new URL(`../screenshots/${name}.png`, import.meta.url), shot);
  }
}

/** The session token the dashboard holds (to end it from outside, as an expiry would). */
export const sessionToken = (page: Page) => page.evaluate(() => sessionStorage.getItem('folio.session'));

/**
 * Keyboard only: Tab (Shift+Tab with `back`) from wherever focus is until `target` has it, then check
 * that the focus is visible (an outline on it, or on the track or label drawn for a hidden input). The
 * target must be on screen and enabled first: a Tab pressed before a form renders goes elsewhere. If the
 * screen re-renders the target meanwhile (focus then falls back to the page), it tabs round again.
 */
export async function tabTo(page: Page, target: Locator, { back = false, max = 60 } = {}) {
  await expect(target).toBeVisible();
  await expect(target).toBeEnabled();
  await expect(async () => {
    for (let i = 0; i < max && !(await isFocused(target)); i++) {
      await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    }
    await expect(target).toBeFocused({ timeout: 1_000 });
    expect(await hasFocusRing(target), 'a visible focus ring').toBe(true);
  }).toPass({ timeout: 20_000 });
}

const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement);

/** Whether the focused element shows a focus ring (on itself or on what is drawn for it). */
const hasFocusRing = (target: Locator) =>
  target.evaluate((el) => {
    if (el !== document.activeElement) return false;
    const drawn = [el, el.nextElementSibling, el.parentElement, el.parentElement?.nextElementSibling];
    return drawn.some((node) => {
      if (!node) return false;
      const style = getComputedStyle(node);
      return (style.outlineStyle !== 'none' && style.outlineWidth !== '0px') || style.boxShadow !== 'none';
    });
  });

export type Hand = 'mouse' | 'keyboard';
export const HANDS: readonly Hand[] = ['mouse', 'keyboard'];

/**
 * Presses a button as an editor would with `hand`: a click of the mouse (which fails if another layer
 * takes the pointer there), or Tab to it (its focus ring checked) and Enter.
 */
export async function press(page: Page, target: Locator, hand: Hand) {
  if (hand === 'mouse') {
    await target.click();
  } else {
    await tabTo(page, target);
    await page.keyboard.press('Enter');
  }
}
