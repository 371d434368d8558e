import { type Folio, type Site, syncPage } from './folio';

/** A home page with one component of every field type, and a footer: what the editor tests edit. */
export const HOME = '/';
export const HERO = {
  componentId: 'Hero',
  instanceKey: 'hero',
  fields: [
    { key: 'title', type: 'text' },
    { key: 'body', type: 'richtext' },
    { key: 'count', type: 'number' },
    { key: 'featured', type: 'boolean' },
    { key: 'image', type: 'image' },
    { key: 'link', type: 'url' },
    { key: 'data', type: 'json' },
  ],
};
export const FOOTER = {
  componentId: 'Footer',
  instanceKey: 'footer',
  fields: [{ key: 'note', type: 'text' }],
};

export async function homePage(folio: Folio, site: Site) {
  await syncPage(folio, site, HOME, [HERO, FOOTER]);
}

/** A 1×1 PNG, for uploads. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
