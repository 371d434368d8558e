/**
 * The site page of the bridge tests (bundled by the test, loaded by the browser): a Hero, a Cta and a
 * list of Features (each item a `<li>` with its title and body, keyed by `_key`) rendered from
 * `folio.live('/')` with plain DOM calls, no framework. Config in the URL's fragment.
 */
import { createFolio, type Entry, editAttributes } from '../../src/index.js';

const config = JSON.parse(decodeURIComponent(location.hash.slice(1))) as {
  url: string;
  key: string;
  editorOrigin: string;
  locale?: string;
};
const page = window as unknown as {
  siteFetch: (r: Request) => Promise<Response>;
  entries: Record<string, Entry>;
};
page.entries = {};
const folio = createFolio({ ...config, fetch: page.siteFetch });
const text = (id: string, value: unknown) => {
  const element = document.getElementById(id);
  if (element) element.textContent = typeof value === 'string' ? value : '';
};
folio.live('/', (entry) => {
  page.entries[entry.instanceKey] = entry;
  if (entry.instanceKey === 'hero') text('title', entry.fields.title);
  if (entry.instanceKey === 'cta') text('label', entry.fields.label);
  if (entry.instanceKey === 'features') {
    const items = (entry.fields.items ?? []) as { _key: string; title?: string; body?: string }[];
    document.getElementById('features')?.replaceChildren(
      ...items.map((item) => {
        const li = document.createElement('li');
        li.dataset.key = item._key;
        const title = document.createElement('h3');
        title.textContent = item.title ?? '';
        const body = document.createElement('p');
        body.textContent = item.body ?? '';
        li.append(title, body);
        return li;
      }),
    );
    // Logos render no text: each item's element says where it is (`editAttributes`), in a session only.
    const logos = (entry.fields.logos ?? []) as { _key: string }[];
    document.getElementById('logos')?.replaceChildren(
      ...logos.map((logo) => {
        const li = document.createElement('li');
        li.dataset.key = logo._key;
        for (const [name, value] of Object.entries(editAttributes(logo))) li.setAttribute(name, value);
        const image = document.createElement('img');
        image.width = 20;
        image.height = 20;
        image.alt = '';
        li.append(image);
        return li;
      }),
    );
  }
});
