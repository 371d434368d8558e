'use client';

import { useFolio } from '@folio/react';
import { imageUrl, sized } from './values';

/** The page's opening: a title, a line under it, an image and a call to action, all editable. */
export function Hero() {
  const { title, subtitle, image, ctaLabel, ctaUrl } = useFolio('hero', {
    componentId: 'Hero',
    fields: { title: 'text', subtitle: 'text', image: 'image', ctaLabel: 'text', ctaUrl: 'url' },
  });
  const src = imageUrl(image);
  return (
    <header className="hero">
      <div className="hero-text">
        <h1>{title ?? 'Your site, edited in Folio'}</h1>
        <p>{subtitle ?? 'Fill in the Hero entry in the dashboard, publish, and reload.'}</p>
        {ctaLabel && ctaUrl && (
          <a className="button" href={ctaUrl}>
            {ctaLabel}
          </a>
        )}
      </div>
      {src && (
        // biome-ignore lint/performance/noImgElement: Folio makes the variant (see sized())
        <img className="hero-image" src={sized(src, { w: 960 })} alt="" />
      )}
    </header>
  );
}
