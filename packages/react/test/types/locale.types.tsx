/** The provider's `locale`, compiled by `npm run typecheck`. */
import type { Folio } from '@folio/sdk';
import { FolioProvider, type FolioProviderProps } from '../../src/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const _locale: Equal<FolioProviderProps['locale'], string | undefined> = true;

export function Localized({ folio, locale }: { folio: Folio; locale: string }) {
  return (
    <>
      <FolioProvider folio={folio} pageId="/" locale={locale}>
        {String(_locale)}
      </FolioProvider>
      {/* @ts-expect-error a locale is a string */}
      <FolioProvider folio={folio} pageId="/" locale={['fr']} />
    </>
  );
}
