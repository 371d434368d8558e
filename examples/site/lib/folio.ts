import { createFolio, type Folio } from '@folio/sdk';

/** Where Folio runs and the project's publishable key (next.config.ts inlines them at build time). */
export const folioUrl = process.env.FOLIO_URL ?? 'http://127.0.0.1:3000';
export const folioKey = process.env.FOLIO_KEY ?? '';
/** Components register on mount only when this is on: by default in development. */
export const registers = process.env.FOLIO_REGISTER === 'true';

/** The URL parameter the dashboard's "Preview" opens the site with. */
export const PREVIEW_PARAM = 'folio-preview';

/**
 * The site's SDK: drafts and live updates with a preview token; without registering outside
 * development (a site in production only reads, so visitors' browsers never send definitions).
 */
export function siteFolio(previewToken?: string): Folio {
  const folio = createFolio({ url: folioUrl, key: folioKey, previewToken });
  if (registers) return folio;
  return { ...folio, register: () => Promise.resolve(null) };
}
