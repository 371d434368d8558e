/** The README's "Languages" example and the locale types, compiled by `npm run typecheck`. */
import {
  component,
  createFolio,
  type Entry,
  number,
  type PageEntry,
  type Snapshot,
  type SnapshotAll,
  text,
} from '../../src/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

export async function languages(render: (value: unknown) => void): Promise<void> {
  const Hero = component('Hero', { title: text({ localized: true }), price: number() });
  // A locale is any string: the project decides which exist (a code it lacks is the API's 400).
  const fr = createFolio({ url: 'https://cms.example.com', key: 'cms_pk_…', locale: 'fr' });
  await fr.register('/', [{ ...Hero, instanceKey: 'hero' }]);
  const [hero] = await fr.page('/', { locale: 'fr-CA', depth: 2 });
  // Entries read from the API carry the locale read and every locale's status; baked ones do not.
  const _locale: Expect<Equal<PageEntry['locale'], Entry['locale'] | undefined>> = true;
  render([_locale, hero?.locale, hero?.locales?.fr?.status, fr.peek('/', 'en')]);
  const stop = fr.live('/', render, undefined, { locale: 'fr-CA' });
  stop();

  const one = await fr.snapshot();
  const _one: Expect<Equal<typeof one, Snapshot>> = true;
  const all = await fr.snapshot({ locale: '*' });
  const _all: Expect<Equal<typeof all, SnapshotAll>> = true;
  render([_one, _all, one.locale, all.defaultLocale, all.locales.fr?.['/']]);

  // Baked from the * document: each locale's content from one file.
  createFolio({ url: 'https://cms.example.com', key: 'cms_pk_…', snapshot: all, locale: 'fr' });
  // @ts-expect-error a locale is a string
  createFolio({ url: 'https://cms.example.com', key: 'cms_pk_…', locale: 3 });
}
