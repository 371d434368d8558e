import { createFolio, type Folio } from '@folio/sdk';
import { ALL_COMPONENTS } from './components';
import { DEFAULT_LOCALE, type Locale } from './locales';

/** Where Folio runs and the project's publishable key (next.config.ts inlines them at build time). */
export const folioUrl = process.env.FOLIO_URL ?? 'http://127.0.0.1:3000';
export const folioKey = process.env.FOLIO_KEY ?? '';
/** The dashboard that may frame the site for visual editing, when it is not served by Folio at folioUrl. */
const editorOrigin = process.env.FOLIO_EDITOR_ORIGIN || undefined;
/** Components register on mount only when this is on: by default in development. */
export const registers = process.env.FOLIO_REGISTER === 'true';

/**
 * A direct preview link's URL parameter (`?folio-preview=cms_pv_…`). The dashboard's preview pane does
 * not use it: it hands the token over postMessage (the visual-editing bridge, in @folio/sdk), never in
 * the URL.
 */
export const PREVIEW_PARAM = 'folio-preview';

/**
 * The site's SDK for one language: every read, live stream and preview of it is in `locale`
 * (`?locale=`); drafts and live updates with a preview token; without registering outside development
 * (a site in production only reads, so visitors' browsers never send definitions). The default
 * language reads without `?locale=` (the plain read is the default locale's), so the English pages also
 * work on a project whose languages are not set yet.
 */
export function siteFolio(locale: Locale, previewToken?: string): Folio {
  const folio = createFolio({
    url: folioUrl,
    key: folioKey,
    previewToken,
    editorOrigin,
    components: ALL_COMPONENTS,
    ...(locale !== DEFAULT_LOCALE && { locale }),
  });
  // Replaced in place, not copied with a spread: `preview` and `baked` are getters that change when
  // the dashboard's visual editor hands the page a token at runtime.
  if (!registers) folio.register = () => Promise.resolve(null);
  return folio;
}
