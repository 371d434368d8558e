/**
 * A project's preview URL template: the site's page for a page id, e.g. `https://example.com{pageId}`.
 * The dashboard frames it and talks to it over postMessage, trusting only its origin (BRIDGE.md), so
 * the origin must be fixed by the template: the same whatever page id is put in. Credentials in the
 * URL are refused: the template is shown to every member and sent to every editor's browser.
 */

export const PAGE_ID = '{pageId}';

/**
 * Page ids are paths ("/", "/about"); the samples include ones that would move the origin if the
 * template let them (`https://{pageId}`). A page id without a leading
 * "/" can still move it (`https://example.com{pageId}` with "x"): the dashboard checks each expanded
 * URL's origin against the template's before framing it.
 */
const SAMPLES = ['/', '/a/b?c=d#e', '/@evil.example'];

export function expandPreviewUrl(template: string, pageId: string): string {
  return template.replaceAll(PAGE_ID, pageId);
}

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
  const prefix = parse(template.slice(0, template.indexOf(PAGE_ID)));
  if (!prefix || (prefix.protocol !== 'http:' && prefix.protocol !== 'https:')) {
    return `must be an http(s) URL whose origin comes before ${PAGE_ID}`;
  }
  for (const sample of SAMPLES) {
    const url = parse(expandPreviewUrl(template, sample));
    if (!url) return 'is not a valid URL once a page id is put in';
    if (url.username || url.password) return 'must not contain credentials';
    if (url.origin !== prefix.origin) return 'must keep the same origin for every page id';
  }
  if (prefix.username || prefix.password) return 'must not contain credentials';
  return null;
}
