import type { Schemas } from '@folio/client';
import { expect, expectAccessible, HANDS, press, screenshot, signIn, test } from './support/fixtures';
import { api, folioForThisFile, newSite, type Site, syncPage } from './support/folio';

/**
 * Issue 44 item 1 (and issue 36's ask): in a project with languages the pages list shows each page's
 * status per language, as GET /v1/pages counts it; the page editor shows the rule problems of the
 * language on screen, though the API now lists those of every language (contract §13).
 */
const folio = folioForThisFile();

const HERO = {
  componentId: 'Hero',
  instanceKey: 'hero',
  fields: [{ key: 'title', type: 'text', label: 'Title', localized: true, required: true }],
};
const NOTE = {
  componentId: 'Note',
  instanceKey: 'note',
  fields: [{ key: 'text', type: 'text', label: 'Text' }],
};
const LOCALES = { default: 'en', available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }] };

async function localizedSite(): Promise<Site> {
  const site = await newSite(folio());
  await api(folio(), 'PATCH', `/v1/projects/${site.projectId}`, {
    token: site.admin.token,
    headers: { 'x-cms-project-id': site.projectId },
    body: { locales: LOCALES },
  });
  await syncPage(folio(), site, '/', [HERO, NOTE]);
  await syncPage(folio(), site, '/about', [NOTE]);
  // The note of / published in French only.
  const entries = await api<Schemas['Entry'][]>(folio(), 'GET', `/v1/content/${encodeURIComponent('/')}`, {
    token: site.admin.token,
    key: site.apiKey,
  });
  const note = entries.find((e) => e.instanceKey === 'note')!;
  await api(folio(), 'PATCH', `/v1/content/${note.id}?locale=fr`, {
    token: site.admin.token,
    key: site.apiKey,
    body: { fields: { text: 'Bonjour' }, status: 'published' },
  });
  return site;
}

for (const hand of HANDS) {
  test(`by ${hand}: the pages list shows each language's status; the editor that language's problems`, async ({
    page,
  }) => {
    const site = await localizedSite();
    await page.goto(`${folio().admin}/p/${site.projectId}/pages`);
    await signIn(page, site.admin.email);

    // What the list shows is what GET /v1/pages counts.
    const pages = await api<Schemas['PageSummary'][]>(folio(), 'GET', '/v1/pages', {
      token: site.admin.token,
      headers: { 'x-cms-project-id': site.projectId },
    });
    expect(pages.map((p) => [p.pageId, p.locales])).toEqual([
      [
        '/',
        [
          { code: 'en', published: 0, drafts: 2 },
          { code: 'fr', published: 1, drafts: 1 },
        ],
      ],
      [
        '/about',
        [
          { code: 'en', published: 0, drafts: 1 },
          { code: 'fr', published: 0, drafts: 1 },
        ],
      ],
    ]);
    const home = page.getByRole('list', { name: 'Status of / per language' });
    await expect(home.getByRole('listitem')).toHaveText(['en0 published2 drafts', 'fr1 published1 draft']);
    const about = page.getByRole('list', { name: 'Status of /about per language' });
    await expect(about.getByRole('listitem')).toHaveText(['en0 published1 draft', 'fr0 published1 draft']);
    await expectAccessible(page);
    if (hand === 'mouse') await screenshot(page, 'pages-per-language');

    // The editor, opened from the list: the hero lacks its title in en and in fr (the API lists both);
    // the English form shows English's one.
    const hero = (
      await api<Schemas['Entry'][]>(folio(), 'GET', `/v1/content/${encodeURIComponent('/')}`, {
        token: site.admin.token,
        key: site.apiKey,
      })
    ).find((e) => e.instanceKey === 'hero')!;
    expect(hero.problems?.map((p) => p.locale)).toEqual(['en', 'fr']);
    await press(page, page.getByRole('link', { name: '/', exact: true }), hand);
    const card = page.getByRole('region', { name: 'hero' });
    await expect(page.getByLabel('Language', { exact: true })).toHaveValue('en');
    await expect(card.getByText('1 problem stops publishing')).toBeVisible();
    await expect(card.getByText('is required')).toHaveCount(1);
  });
}
