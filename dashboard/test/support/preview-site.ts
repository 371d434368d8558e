import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for a site, on its own origins, playing the site's end of the preview bridge (BRIDGE.md)
 * the way @folio/sdk does: hello to the dashboard until `init`, then it reads the page's entries with
 * the preview token (drafts) and says `ready`; `draft` re-renders an entry at once, `highlight` is
 * recorded, a click on a title posts `select`, a click on a list item (or block) `select` with its
 * path by `_key`. It accepts messages only from the dashboard's origin
 * and its parent window. Every bridge message it receives is kept in `window.received`, and the
 * number of hellos it sent in `window.hellos`. A `?locale=` in its URL (a preview URL with `{locale}`)
 * reads the page in that locale, and then, as @folio/sdk's session does, a draft of another locale is
 * not shown (a draft that names none is, as before).
 *
 * Two servers, so two origins: `/site{pageId}` is the page; `/redirect{pageId}` sends the browser to
 * the same page on the other origin (a site that ends up somewhere else than its preview URL says).
 */
export async function startPreviewSite(folioUrl: string, apiKey: string) {
  const ports: number[] = [];
  const handler = (req: { url?: string }, res: import('node:http').ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname.startsWith('/redirect')) {
      const rest = url.pathname.slice('/redirect'.length);
      res.writeHead(302, { location: `http://127.0.0.1:${ports[1]}/site${rest}${url.search}` }).end();
      return;
    }
    if (!url.pathname.startsWith('/site')) {
      res.writeHead(404).end();
      return;
    }
    const pageId = decodeURIComponent(url.pathname.slice('/site'.length)) || '/';
    const locale = url.searchParams.get('locale') || null;
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(page(folioUrl, apiKey, pageId, locale));
  };
  const servers: Server[] = [createServer(handler), createServer(handler)];
  for (const server of servers) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    ports.push((server.address() as AddressInfo).port);
  }
  return {
    /** The preview URL's origin. */
    origin: `http://127.0.0.1:${ports[0]}`,
    /** Where /redirect sends the browser: another origin. */
    otherOrigin: `http://127.0.0.1:${ports[1]}`,
    close: () =>
      Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))).then(
        () => undefined,
      ),
  };
}

function page(folioUrl: string, apiKey: string, pageId: string, locale: string | null): string {
  const config = JSON.stringify({ folio: new URL(folioUrl).origin, apiKey, pageId, locale }).replace(
    /</g,
    '\\u003c',
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test site ${pageId.replace(/[<&]/g, '')}</title></head>
<body><main><h1>Test site</h1><div id="entries"><p>Loading…</p></div></main>
<script>
const { folio, apiKey, pageId, locale } = ${config};
window.received = [];
let initialised = false;
const post = (message) => parent.postMessage({ folio: 'bridge', v: 1, ...message }, folio);
const entries = document.getElementById('entries');
// An entry: its title (a click selects the entry), then each list or blocks field as a list whose
// items are buttons named by their title, heading or caption (a click, or Enter, selects the item and that field by
// _key, as @folio/sdk's overlay does), nested lists inside.
function renderEntry(entryId, fields) {
  const box = document.createElement('section');
  box.dataset.box = entryId;
  if (typeof fields.title === 'string') {
    const title = document.createElement('h2');
    title.dataset.entry = entryId;
    title.textContent = fields.title;
    title.addEventListener('click', () => post({ type: 'select', entryId }));
    box.append(title);
  }
  box.append(...lists(entryId, fields, ''));
  return box;
}
function lists(entryId, fields, at) {
  return Object.entries(fields)
    .filter(([, v]) => Array.isArray(v) && v.length > 0 && v.every((i) => i && typeof i._key === 'string'))
    .map(([key, items]) => {
      const list = document.createElement('ul');
      list.setAttribute('aria-label', key);
      list.append(...items.map((item) => {
        const path = (at ? at + '.' : '') + key + '[_key=' + item._key + ']';
        const named = ['title', 'heading', 'caption'].find((k) => typeof item[k] === 'string');
        const text = named ? [named, item[named]] : undefined;
        const li = document.createElement('li');
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = text ? text[1] : item._key;
        button.addEventListener('click', () =>
          post({ type: 'select', entryId, path: path + (text ? '.' + text[0] : '') }));
        li.append(button, ...lists(entryId, item, path));
        return li;
      }));
      return list;
    });
}
function render(list) {
  entries.replaceChildren(...list.map((entry) => renderEntry(entry.id, entry.fields)));
}
addEventListener('message', async (event) => {
  if (event.origin !== folio || event.source !== parent) return;
  const message = event.data;
  if (!message || message.folio !== 'bridge' || message.v !== 1) return;
  window.received.push(message);
  if (message.type === 'init') {
    initialised = true;
    const query = locale ? '?locale=' + encodeURIComponent(locale) : '';
    const res = await fetch(folio + '/v1/content/' + encodeURIComponent(pageId) + query, {
      headers: { 'x-cms-key': apiKey, 'x-cms-preview': message.previewToken },
    });
    render((await res.json()).data);
    post({ type: 'ready', pageId });
  } else if (message.type === 'draft') {
    if (message.locale && locale && message.locale.toLowerCase() !== locale.toLowerCase()) return;
    const box = document.querySelector('[data-box="' + CSS.escape(message.entryId) + '"]');
    if (box) box.replaceWith(renderEntry(message.entryId, message.fields));
  } else if (message.type === 'highlight') {
    document.body.dataset.highlight = message.entryId ?? '';
    document.body.dataset.highlightPath = message.path ?? '';
  }
});
window.hellos = 0;
(function hello() {
  if (initialised || window.hellos >= 20) return;
  window.hellos++;
  post({ type: 'hello', pageId });
  setTimeout(hello, 500);
})();
</script></body></html>`;
}
