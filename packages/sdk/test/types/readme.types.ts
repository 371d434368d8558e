/** The README's marketing page, compiled by `npm run typecheck` so the README shows code that compiles. */
import { blocks, component, createFolio, findEntry, isResolved, type PageEntry } from '../../src/index.js';
import { Features, Hero, Menu, Testimonials } from '../fixtures/marketing.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

export async function readme(render: (value: unknown) => void): Promise<void> {
  const folio = createFolio({ url: 'https://cms.example.com', key: 'cms_pk_…' });
  await folio.register('@site', [{ ...Menu, instanceKey: 'menu' }]);
  await folio.register('/', [
    { ...Hero, instanceKey: 'hero' },
    { ...Features, instanceKey: 'features' },
    { ...Testimonials, instanceKey: 'testimonials' },
  ]);

  const home = await folio.page('/');
  const hero = findEntry(home, 'hero', Hero);
  const _variant: Expect<Equal<NonNullable<typeof hero>['fields']['variant'], 'light' | 'dark' | 'brand'>> =
    true;
  for (const item of findEntry(home, 'features', Features)?.fields.items ?? []) {
    const _k: Expect<Equal<typeof item._key, string>> = true;
    const _i: Expect<Equal<typeof item.icon, 'bolt' | 'star' | 'heart' | undefined>> = true;
    render([_k, _i]);
  }
  for (const pick of findEntry(home, 'testimonials', Testimonials)?.fields.picks ?? []) {
    if (isResolved(pick)) {
      const _q: Expect<Equal<typeof pick.fields.quote, string>> = true;
      render(_q);
    }
  }
  const menu = findEntry(await folio.page('@site'), 'menu', Menu)?.fields.items ?? [];
  render(menu.map((item) => ('pageId' in item.to ? item.to.pageId : item.to.href)));
  render(_variant);
}

export function sections(entries: PageEntry[], render: (value: unknown) => void): void {
  const Page = component('Page', { sections: blocks([Hero, Features], { max: 20 }) });
  for (const section of findEntry(entries, 'page', Page)?.fields.sections ?? []) {
    if (section._type === 'Hero') render(section.headline);
    else render(section.items);
  }
}
