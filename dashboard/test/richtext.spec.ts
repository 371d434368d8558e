import { expect, expectAccessible, HANDS, press, screenshot, signIn, tabTo, test } from './support/fixtures';
import { entryOf, folioForThisFile, newSite } from './support/folio';
import { HOME, homePage } from './support/page-fixture';

/** Issue 37: rich text has headings, numbered lists and links (checked as `url` values are). */
const folio = folioForThisFile();

for (const hand of HANDS) {
  test(`by ${hand}: a heading, a numbered list and a link (javascript: refused) are written and saved`, async ({
    page,
  }) => {
    const site = await newSite(folio());
    await homePage(folio(), site);
    await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent(HOME)}`);
    await signIn(page, site.admin.email);
    const hero = page.getByRole('region', { name: 'hero' });
    const body = hero.getByRole('textbox', { name: 'body' });
    const toolbar = hero.getByRole('toolbar', { name: 'Formatting' });
    await expect(body).toBeVisible();
    /** A toolbar button by `hand`: the keyboard goes back to it from the text (Shift+Tab). */
    const tool = async (name: string) => {
      const button = toolbar.getByRole('button', { name, exact: true });
      if (hand === 'mouse') await button.click();
      else {
        await tabTo(page, button, { back: true });
        await page.keyboard.press('Enter');
      }
    };

    if (hand === 'mouse') await body.click();
    else await tabTo(page, body);
    await page.keyboard.type('Opening hours');
    await tool('Heading');
    await expect(toolbar.getByRole('button', { name: 'Heading', exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(body.getByRole('heading', { name: 'Opening hours', level: 2 })).toBeVisible();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Rye');
    await tool('Numbered list');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Spelt');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter'); // an empty item ends the list
    await page.keyboard.type('Find us');
    await page.keyboard.press('Shift+Home');

    await tool('Link');
    const address = hero.getByRole('textbox', { name: 'Link address' });
    await expect(address).toBeFocused();
    await page.keyboard.type('javascript:alert(1)');
    await page.keyboard.press('Enter');
    await expect(hero.getByText('“javascript:alert(1)” cannot be a link.')).toBeVisible();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('/visit');
    await press(page, hero.getByRole('button', { name: 'Apply link' }), hand);
    await expect(body.getByRole('link', { name: 'Find us' })).toHaveAttribute('href', '/visit');
    await expectAccessible(page);
    if (hand === 'mouse') await screenshot(page, 'richtext-toolbar');

    await press(page, hero.getByRole('button', { name: 'Save draft' }), hand);
    await expect(hero.getByText('unsaved changes')).toHaveCount(0);
    const saved = String((await entryOf(folio(), site, HOME, 'hero')).fields.body);
    expect(saved).toContain('<h2>Opening hours</h2>');
    expect(saved).toMatch(/<ol><li><p>Rye<\/p><\/li><li><p>Spelt<\/p><\/li><\/ol>/);
    expect(saved).toMatch(/<a [^>]*href="\/visit"[^>]*>Find us<\/a>/);
    expect(saved).not.toContain('javascript:');
  });
}
