import { writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';

/**
 * Each run writes test-results/screenshots/ (ignored by git), so `npm test` leaves the tree clean; the
 * committed references in test/screenshots/ (the README shows some) change only on purpose, with
 * FOLIO_REFERENCE_SCREENSHOTS=1.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const shot = await page.screenshot({
    path: new URL(`../../test-results/screenshots/${name}.png`, import.meta.url).pathname,
  });
  if (process.env.FOLIO_REFERENCE_SCREENSHOTS === '1') {
    writeFileSync(new URL(`../screenshots/${name}.png`, import.meta.url), shot);
  }
}
