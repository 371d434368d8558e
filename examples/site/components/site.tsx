'use client';

import { FolioProvider } from '@folio/react';
import { useEffect, useMemo, useState } from 'react';
import type { BakedPage } from '../lib/baked';
import { PREVIEW_PARAM, siteFolio } from '../lib/folio';
import { FeatureList } from './feature-list';
import { Hero } from './hero';
import { ProductGrid } from './product-grid';

/**
 * The home page's editable part. Built with a snapshot, it renders from it (in the prerendered HTML
 * and after hydration) and asks Folio nothing; built without one, it reads Folio in the browser. Opened
 * with `?folio-preview=<token>` (the dashboard's preview), it shows drafts and follows every save live.
 */
export function Site({ pageId, baked }: { pageId: string; baked?: BakedPage }) {
  // Read after hydration: the prerendered HTML is the same for every visitor, preview or not.
  const [previewToken, setPreviewToken] = useState<string>();
  useEffect(() => {
    setPreviewToken(new URLSearchParams(window.location.search).get(PREVIEW_PARAM) ?? undefined);
  }, []);
  const folio = useMemo(() => siteFolio(previewToken), [previewToken]);
  const mode = previewToken ? 'preview' : baked ? 'baked' : 'live';

  return (
    <FolioProvider folio={folio} pageId={pageId} entries={baked?.entries}>
      <div className="site" data-folio-mode={mode} data-folio-version={baked?.version}>
        <Hero />
        <FeatureList />
        <ProductGrid folio={folio} baked={previewToken ? undefined : baked?.products} />
        <footer className="footer">
          {mode === 'preview'
            ? 'Preview: drafts, updated as the editor saves'
            : mode === 'baked'
              ? 'Rendered from the snapshot baked into this build'
              : 'Read live from Folio'}
        </footer>
      </div>
    </FolioProvider>
  );
}
