import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFolio, type PageEntry } from '@folio/sdk';
import { renderToString } from 'react-dom/server';
import { definitionOf } from '../src/fields.js';
import { FolioProvider } from '../src/index.js';
import { Features, Hero, HeroView, Landing, LandingView, Menu, MenuView } from './marketing.js';

// Rendering on the server sends nothing: this Folio is never reached.
const folio = createFolio({ url: 'http://127.0.0.1:9', key: 'cms_pk_test' });

/** Entries as a visitor's read gives them: list items with `_key`, blocks with `_type`, references resolved. */
const landing: PageEntry[] = [
  {
    instanceKey: 'hero',
    componentId: 'Hero',
    fields: { headline: 'Ship faster', variant: 'brand', cta: { pageId: '/pricing' } },
  },
  {
    instanceKey: 'landing',
    componentId: 'Landing',
    fields: {
      sections: [
        { _key: 's1', _type: 'Hero', headline: 'Why us', variant: 'light' },
        {
          _key: 's2',
          _type: 'Features',
          items: [
            { _key: 'f1', title: 'Fast', icon: 'bolt' },
            { _key: 'f2', title: 'Loved' },
          ],
        },
      ],
      testimonials: [
        {
          id: 'ent_1',
          pageId: '@site',
          instanceKey: 'ada',
          componentId: 'Testimonial',
          fields: { quote: 'It just works', author: 'Ada' },
        },
        { id: 'ent_2' },
      ],
    },
  },
];

describe('useFolio with declared fields of every kind', () => {
  it('registers the nested declarations as contract §13 writes them', () => {
    assert.deepEqual(definitionOf('features', Features.componentId, Features.fields), {
      componentId: 'Features',
      instanceKey: 'features',
      fields: [
        {
          key: 'items',
          type: 'list',
          fields: [
            { key: 'title', type: 'text', required: true },
            { key: 'icon', type: 'select', options: [{ value: 'bolt' }, { value: 'star' }] },
          ],
          max: 12,
        },
      ],
    });
    assert.deepEqual(definitionOf('landing', Landing.componentId, Landing.fields).fields[1], {
      key: 'testimonials',
      type: 'reference',
      componentIds: ['Testimonial'],
      multiple: true,
      max: 6,
    });
    assert.deepEqual(definitionOf('menu', Menu.componentId, { ...Menu.fields, note: 'text' }).fields[1], {
      key: 'note',
      type: 'text',
    });
    assert.equal(definitionOf('hero', Hero.componentId, Hero.fields).fields.length, 3);
  });

  it('renders lists by _key, blocks by _type and resolved references; { id } alone is skipped', () => {
    const html = renderToString(
      <FolioProvider folio={folio} pageId="/" entries={landing}>
        <HeroView instanceKey="hero" />
        <LandingView />
      </FolioProvider>,
    );
    assert.equal(
      html,
      '<header class="hero hero-brand"><h1>Ship faster</h1><a href="/pricing">Start</a></header>' +
        '<main><h2>Why us</h2><ul><li data-icon="bolt">Fast</li><li data-icon="none">Loved</li></ul>' +
        '<blockquote>It just works<!-- --> (<!-- -->Ada<!-- -->)</blockquote></main>',
    );
  });

  it('a menu on the shared page @site', () => {
    const menu: PageEntry[] = [
      {
        instanceKey: 'menu',
        componentId: 'Menu',
        fields: {
          items: [
            { _key: 'a', label: 'Pricing', to: { pageId: '/pricing' } },
            { _key: 'b', label: 'Docs', to: { href: 'https://docs.example.com' } },
          ],
        },
      },
    ];
    const html = renderToString(
      <FolioProvider folio={folio} pageId="@site" entries={menu}>
        <MenuView />
      </FolioProvider>,
    );
    assert.equal(
      html,
      '<nav><a href="/pricing">Pricing</a><a href="https://docs.example.com">Docs</a></nav>',
    );
  });
});
