import { expect, HANDS, press, signIn, test } from './support/fixtures';
import { folioForThisFile, newSite, syncPage } from './support/folio';

/** Issue 37: a page's components in the order the page shows them (the order its sync sent), not by key. */
const folio = folioForThisFile();

const component = (instanceKey: string) => ({
  componentId: instanceKey.replace(/-\d$/, ''),
  instanceKey,
  fields: [{ key: 'title', type: 'text' }],
});
const ORDER = ['hero', 'features', 'feature-1', 'feature-2', 'pricing'];

for (const hand of HANDS) {
  test(`by ${hand}: the page's forms come in the page's order, and Tab walks them in that order`, async ({
    page,
  }) => {
    const site = await newSite(folio());
    await syncPage(folio(), site, '/', ORDER.map(component));
    await page.goto(`${folio().admin}/p/${site.projectId}/pages`);
    await signIn(page, site.admin.email);
    await press(page, page.getByRole('link', { name: '/', exact: true }), hand);
    const forms = page.getByRole('region', { name: /^(hero|features|feature-\d|pricing)$/ });
    await expect(forms).toHaveCount(ORDER.length);
    const names = await forms.evaluateAll((nodes) =>
      nodes.map((n) => document.getElementById(n.getAttribute('aria-labelledby') ?? '')?.textContent ?? ''),
    );
    expect(names).toEqual(ORDER);
    if (hand === 'keyboard') {
      // Tab reaches the forms in the same order.
      const reached: string[] = [];
      for (let i = 0; i < 150 && reached.length < ORDER.length; i++) {
        await page.keyboard.press('Tab');
        const form = await page.evaluate(() => {
          const section = document.activeElement?.closest('section[aria-labelledby]');
          return section
            ? (document.getElementById(section.getAttribute('aria-labelledby') ?? '')?.textContent ?? '')
            : '';
        });
        if (form && reached.at(-1) !== form) reached.push(form);
      }
      expect(reached).toEqual(ORDER);
    }
  });
}
