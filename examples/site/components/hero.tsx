'use client';

import { useFolio } from '@folio/react';
import { Hero as HeroComponent } from '../lib/components';
import { imageUrl, safeHref, sized } from './values';

/** The page's opening: a title, a line under it, an image and a call to action, all editable. */
export function Hero() {
  const { title, subtitle, image, ctaLabel, ctaUrl } = useFolio('hero', HeroComponent);
  const src = imageUrl(image);
  const href = safeHref(ctaUrl);
  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="hero-text">
        <h1 id="hero-title">{title ?? 'Your site, edited in Folio'}</h1>
        <p>{subtitle ?? 'Fill in the Hero entry in the dashboard, publish, and reload.'}</p>
        {ctaLabel && href && (
          <a className="button" href={href}>
            {ctaLabel}
          </a>
        )}
      </div>
      {src && (
        // biome-ignore lint/performance/noImgElement: Folio makes the variant (see sized())
        <img className="hero-image" src={sized(src, { w: 960 })} alt="" />
      )}
    </section>
  );
}
