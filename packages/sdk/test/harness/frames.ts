import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { build } from 'esbuild';
import { type Browser, chromium, type Frame, type Page } from 'playwright-core';
import { waitFor } from './folio.js';

/**
 * The visual editor's two ends in a real browser, on origins of their own: an "editor" page (the
 * dashboard's place) that frames a "site" page, each a tiny node:http server. The site page loads the
 * SDK as a site's bundler builds it (esbuild, code splitting on: the visual-editing chunks are files
 * of their own, so the tests can see whether they were loaded). A third origin plays a stranger that
 * frames the site. Used by the SDK's bridge tests and @folio/react's.
 */
export interface Origin {
  url: string;
  /** Every path asked of this server, in order. */
  requests: string[];
  close(): Promise<void>;
}

type Routes = Record<string, { type: string; body: string | Uint8Array; headers?: Record<string, string> }>;

export async function serve(routes: Routes): Promise<Origin> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    requests.push(path);
    const route = routes[path];
    if (!route) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': route.type, 'cache-control': 'no-store', ...route.headers });
    response.end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The built bundle of `entry` with its chunks, as routes under /app/ (index.js is the entry). */
export async function bundle(entry: string, alias: Record<string, string> = {}): Promise<Routes> {
  const result = await build({
    entryPoints: { index: entry },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    outdir: '/app',
    write: false,
    alias,
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  const routes: Routes = {};
  for (const file of result.outputFiles) {
    routes[file.path] = { type: 'text/javascript', body: file.contents };
  }
  return routes;
}

/**
 * Watches the page from before any script of it runs: listeners added to the window, the document and
 * elements (not AbortSignals: the SDK's fetches use those everywhere), attributes changed, and the
 * requests the SDK sends (through `window.siteFetch`, given to createFolio).
 */
const WATCH = `
window.listeners = [];
const add = EventTarget.prototype.addEventListener;
const remove = EventTarget.prototype.removeEventListener;
const onPage = (target) => target === window || target instanceof Node;
EventTarget.prototype.addEventListener = function (type, ...rest) {
  if (onPage(this)) window.listeners.push('+' + type);
  return add.call(this, type, ...rest);
};
EventTarget.prototype.removeEventListener = function (type, ...rest) {
  if (onPage(this)) window.listeners.push('-' + type);
  return remove.call(this, type, ...rest);
};
window.attributes = [];
new MutationObserver((records) => {
  for (const record of records) window.attributes.push(record.attributeName);
}).observe(document.documentElement, { attributes: true, subtree: true });
window.sent = [];
window.siteFetch = (request) => {
  window.sent.push({ path: new URL(request.url).pathname, preview: request.headers.get('x-cms-preview') });
  return fetch(request);
};
`;

/**
 * A site page: `body` then the bundle, under a strict CSP (scripts by nonce; no inline style, so an
 * outline can only come from the CSSOM), which the editor and the stranger may frame. The page's config
 * (Folio's url, the key, the editor origin) travels in the URL's fragment.
 */
export function sitePage(body: string, frameAncestors: string[], folioUrl: string): Routes[string] {
  const nonce = randomBytes(12).toString('base64');
  return {
    type: 'text/html',
    headers: {
      'content-security-policy': [
        "default-src 'self'",
        `script-src 'self' 'nonce-${nonce}'`,
        "style-src 'self'",
        `connect-src ${folioUrl}`,
        `frame-ancestors ${frameAncestors.join(' ')}`,
      ].join('; '),
    },
    body: `<!doctype html><html><head><meta charset="utf-8"><title>site</title>
<script nonce="${nonce}">${WATCH}</script></head><body>${body}
<script type="module" src="/app/index.js"></script></body></html>`,
  };
}

/** An editor (or stranger) page: the site in an iframe, and a sibling frame of the editor's own origin. */
export function framingPage(siteUrl: string): Routes[string] {
  return {
    type: 'text/html',
    body: `<!doctype html><html><head><meta charset="utf-8"><title>editor</title></head><body>
<iframe id="site" src="${siteUrl}" width="800" height="600"></iframe>
<iframe id="sibling" src="/blank"></iframe>
<script>
  // Everything the site frame delivers here, whatever it is.
  window.received = [];
  addEventListener('message', (event) => {
    if (event.source === document.getElementById('site').contentWindow) {
      window.received.push({ origin: event.origin, data: event.data });
    }
  });
</script></body></html>`,
  };
}

export const blankPage = { type: 'text/html', body: '<!doctype html><title>blank</title>' };

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
}

/** The frame of `page` whose URL starts with `origin`, once it has loaded there. */
export async function frameOf(page: Page, origin: string): Promise<Frame> {
  const find = () => page.frames().find((f) => f.url().startsWith(origin));
  await waitFor(() => find() !== undefined, 10_000, `a frame of ${origin}`);
  return find() as Frame;
}

/** Posts a bridge message from the editor page (window.parent of the site) to the site frame. */
export function postToSite(page: Page, siteOrigin: string, message: Record<string, unknown>): Promise<void> {
  return page.evaluate(
    ([origin, body]) => {
      const site = document.getElementById('site') as HTMLIFrameElement;
      site.contentWindow?.postMessage({ folio: 'bridge', v: 1, ...body }, origin);
    },
    [siteOrigin, message] as const,
  );
}

/** Messages of one type the site delivered to the framing page. */
export function received(
  page: Page,
  type: string,
): Promise<{ origin: string; data: Record<string, unknown> }[]> {
  return page.evaluate(
    (wanted) =>
      (window as unknown as { received: { origin: string; data: { type?: string } }[] }).received.filter(
        (m) => m.data?.type === wanted,
      ),
    type,
  ) as Promise<{ origin: string; data: Record<string, unknown> }[]>;
}

/** Zero-width characters of stega marks. */
export const MARKS = /[\u200b-\u200d\u2060\u2063]/;

/** The three origins of a test: the editor (framing page and a sibling), a stranger, the site. */
export interface Rig {
  editor: Origin;
  stranger: Origin;
  web: Origin;
  /** The site page's URL, with its config for an SDK whose editor is `editor`. */
  siteUrl: string;
  close(): Promise<void>;
}

/**
 * Serves the site page (`body`, then the bundle of `entry`) and the editor's and a stranger's pages that
 * frame it at `/frame`. The site's CSP lets both frame it, so the SDK, not the browser, must refuse the
 * stranger.
 */
export async function startRig(options: {
  entry: string;
  body: string;
  folioUrl: string;
  key: string;
  alias?: Record<string, string>;
  /** createFolio's `locale` for the site page (a project with locales). */
  locale?: string;
}): Promise<Rig> {
  const framing: Routes = { '/blank': blankPage };
  const editor = await serve(framing);
  const stranger = await serve(framing);
  const app = await bundle(options.entry, options.alias);
  const web = await serve({
    '/': sitePage(options.body, [editor.url, stranger.url], options.folioUrl),
    ...app,
  });
  // With a trailing slash, as people write URLs: the SDK compares origins, not strings.
  const config = {
    url: options.folioUrl,
    key: options.key,
    editorOrigin: `${editor.url}/`,
    ...(options.locale ? { locale: options.locale } : {}),
  };
  const siteUrl = `${web.url}/#${encodeURIComponent(JSON.stringify(config))}`;
  framing['/frame'] = framingPage(siteUrl);
  return {
    editor,
    stranger,
    web,
    siteUrl,
    async close() {
      for (const origin of [editor, stranger, web]) await origin.close();
    },
  };
}
