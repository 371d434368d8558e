'use client';

import { FolioProvider } from '@folio/react';
import { useEffect, useLayoutEffect, useMemo, useState } from 'react';
import type { BakedPage } from '../lib/baked';
import { SITE_PAGE } from '../lib/components';
import { PREVIEW_PARAM, siteFolio } from '../lib/folio';
import { type Locale, pathOf } from '../lib/locales';
import { FeatureList } from './feature-list';
import { Footer } from './footer';
import { Hero } from './hero';
import { LanguageSwitcher } from './language-switcher';
import { Menu } from './menu';
import { ProductGrid } from './product-grid';
import { Testimonials } from './testimonials';

/**
 * One page of the site in one language: the menu and the footer (entries of the shared page `@site`)
 * around the page's own components. Built with a snapshot, it renders from it (in the prerendered HTML
 * and after hydration) and asks Folio nothing; built without one, it reads Folio in the browser. Opened
 * with `?folio-preview=<token>`, or in the dashboard's preview pane, it shows drafts of this language
 * and follows every save live.
 */
export function Site({ locale, pageId, baked }: { locale: Locale; pageId: string; baked?: BakedPage }) {
  // Read after hydration: the prerendered HTML is the same for every visitor, preview or not.
  const [previewToken, setPreviewToken] = useState<string>();
  useEffect(() => {
    setPreviewToken(new URLSearchParams(window.location.search).get(PREVIEW_PARAM) ?? undefined);
  }, []);
  // One SDK for both pages, so one visual-editing session (one token) previews the menu and the page.
  const folio = useMemo(() => siteFolio(locale, previewToken), [locale, previewToken]);
  // The dashboard's preview pane opened this page, not @site: announce it before any component's
  // effect (layout effects run before them) registers or reads @site.
  useLayoutEffect(() => folio.editable(pageId), [folio, pageId]);
  const mode = previewToken ? 'preview' : baked ? 'baked' : 'live';

  return (
    <div
      className="site"
      data-folio-mode={mode}
      data-folio-version={baked?.version}
      data-folio-locale={locale}
    >
      {/* The shared page around the page's own: the menu and footer read @site, the rest the page. */}
      <FolioProvider folio={folio} pageId={SITE_PAGE} entries={baked?.pages[SITE_PAGE]}>
        <header className="top">
          <a className="brand" href={pathOf(locale, '/')}>
            Folio Bakery
          </a>
          <Menu locale={locale} />
          <LanguageSwitcher locale={locale} pageId={pageId} previewToken={previewToken} />
        </header>
        <main>
          <FolioProvider folio={folio} pageId={pageId} entries={baked?.pages[pageId]}>
            <Hero />
            <FeatureList />
            <Testimonials />
            <ProductGrid folio={folio} locale={locale} baked={previewToken ? undefined : baked?.products} />
          </FolioProvider>
        </main>
        <Footer locale={locale} />
      </FolioProvider>
      <p className="mode">
        {mode === 'preview'
          ? 'Preview: drafts, updated as the editor saves'
          : mode === 'baked'
            ? 'Rendered from the snapshot baked into this build'
            : 'Read live from Folio'}
      </p>
    </div>
  );
}
