/**
 * A project's preview URL template: the site's page for a page id, e.g. `https://example.com{pageId}`.
 * The dashboard frames it and talks to it over postMessage, trusting only its origin (BRIDGE.md), so
 * the origin must be fixed by the template: the same whatever page id is put in. Credentials in the
 * URL are refused: the template is shown to every member and sent to every editor's browser.
 */

export const PAGE_ID = '{pageId}';
/**
 * Where the locale the editor works in goes (issue 36: the pane follows the dashboard's language), e.g.
 * `https://example.com/{locale}{pageId}`; optional, and after the origin like `{pageId}`. Without
 * locales it expands to nothing.
 */
export const LOCALE = '{locale}';

/**
 * Page ids are paths ("/", "/about"); the samples include ones that would move the origin if the
 * template let them (`https://{pageId}`). A page id without a leading
 * "/" can still move it (`https://example.com{pageId}` with "x"): the dashboard checks each expanded
 * URL's origin against the template's before framing it.
 */
const SAMPLES = ['/', '/a/b?c=d#e', '/@evil.example'];
/** Locale codes as a project may have them (and none), for the same check. */
const LOCALE_SAMPLES = ['', 'en', 'fr-CA', 'zh-Hant-TW'];

export function expandPreviewUrl(template: string, pageId: string, locale = ''): string {
  return template.replaceAll(PAGE_ID, pageId).replaceAll(LOCALE, locale);
}

/** Where the origin ends: before the first placeholder. */
const originEnd = (template: string): number => {
  const locale = template.indexOf(LOCALE);
  const page = template.indexOf(PAGE_ID);
  return locale === -1 ? page : Math.min(locale, page);
};

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** Why a template cannot be a preview URL, or null when it can. */
export function previewUrlProblem(template: string): string | null {
  if (!template.includes(PAGE_ID)) return `must contain ${PAGE_ID}, where the page id goes`;
  const prefix = parse(template.slice(0, originEnd(template)));
  if (!prefix || (prefix.protocol !== 'http:' && prefix.protocol !== 'https:')) {
    return `must be an http(s) URL whose origin comes before ${PAGE_ID}`;
  }
  for (const sample of SAMPLES) {
    for (const locale of LOCALE_SAMPLES) {
      const url = parse(expandPreviewUrl(template, sample, locale));
      if (!url) return 'is not a valid URL once a page id is put in';
      if (url.username || url.password) return 'must not contain credentials';
      if (url.origin !== prefix.origin) return 'must keep the same origin for every page id and locale';
    }
  }
  if (prefix.username || prefix.password) return 'must not contain credentials';
  return null;
}
