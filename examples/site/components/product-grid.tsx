'use client';

import { useFolio } from '@folio/react';
import type { Folio, FolioObject } from '@folio/sdk';
import { useEffect, useState } from 'react';
import { ProductGrid as ProductGridComponent } from '../lib/components';
import type { Locale } from '../lib/locales';
import { imageUrl, price, sized } from './values';

/**
 * Products are Folio objects of type `product` (a shop's catalogue, saved by its own server with a
 * secret key: `POST /v1/objects/save`), with fields `name`, `price`, `currency`, `image`, `summary`.
 * Baked: from the snapshot. Otherwise read once in the browser (drafts too with a preview token). The
 * grid's heading is an ordinary editable entry, translated; objects have no languages, so a price is
 * only written in the reader's (`6,50 €` in French).
 */
export function ProductGrid({
  folio,
  locale,
  baked,
}: {
  folio: Folio;
  locale: Locale;
  baked?: FolioObject[];
}) {
  const { heading } = useFolio('products', ProductGridComponent);
  const [products, setProducts] = useState<FolioObject[] | undefined>(baked);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (baked) return setProducts(baked);
    const abort = new AbortController();
    folio
      .objects({ types: ['product'], draft: folio.preview, signal: abort.signal })
      .then(setProducts, (error: unknown) => {
        if (abort.signal.aborted) return;
        console.error(error);
        setFailed(true);
      });
    return () => abort.abort();
  }, [folio, baked]);

  return (
    <section className="products" id="products" aria-labelledby="products-heading">
      <h2 id="products-heading">{heading ?? 'Products'}</h2>
      {failed ? (
        <p className="empty">The products could not be loaded.</p>
      ) : products === undefined ? (
        <p className="empty">Loading products…</p>
      ) : products.length === 0 ? (
        <p className="empty">No products yet.</p>
      ) : (
        <ul className="grid">
          {products.map((product) => (
            <Product key={product.id} product={product} locale={locale} />
          ))}
        </ul>
      )}
    </section>
  );
}

function Product({ product, locale }: { product: FolioObject; locale: Locale }) {
  const { name, summary } = product.fields;
  const src = imageUrl(product.fields.image);
  const amount = price(product.fields.price, product.fields.currency, locale);
  const title = typeof name === 'string' ? name : product.id;
  return (
    <li className="product">
      <article aria-label={title}>
        {src && (
          // biome-ignore lint/performance/noImgElement: Folio makes the variant (see sized())
          <img src={sized(src, { w: 480, h: 360 })} alt="" />
        )}
        <h3>{title}</h3>
        {typeof summary === 'string' && <p>{summary}</p>}
        {amount && <p className="price">{amount}</p>}
      </article>
    </li>
  );
}
