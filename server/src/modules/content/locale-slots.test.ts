import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locales } from '../../shared/locales.js';
import type { EntryLocaleRow } from './content.table.js';
import {
  publishedView,
  type Slots,
  statusesOf,
  statusIn,
  valuesForRules,
  versionIn,
  workingIn,
} from './locale-slots.js';

const LOCALES: Locales = {
  default: 'en',
  available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }, { code: 'fr-CA', fallback: 'fr' }],
};
const localized = new Set(['title', 'body']);
const row = (locale: string, fields: object, published: object | null, version = 2): EntryLocaleRow => ({
  entryId: 'ent_1',
  locale,
  projectId: 'prj_1',
  fields: JSON.stringify(fields),
  publishedFields: published && JSON.stringify(published),
  publishedAt: published && '2026-11-27T10:00:00.000Z',
  version,
  publishedVersion: published && version,
  updatedAt: '2026-11-27T10:00:00.000Z',
});
const slots = (others: EntryLocaleRow[]): Slots => ({
  entry: {
    fields: JSON.stringify({ body: 'Body', color: 'red', title: 'Hello' }),
    publishedFields: JSON.stringify({ body: 'Body', color: 'blue', title: 'Hello' }),
    publishedAt: '2026-11-27T09:00:00.000Z',
    version: 7,
    publishedVersion: 5,
    sharedVersion: 3,
  },
  others: new Map(others.map((r) => [r.locale, r])),
});

describe('locale slots', () => {
  it('reads working copies through the chain, naming where each value came from', () => {
    const s = slots([row('fr', { title: 'Bonjour' }, null)]);
    assert.deepEqual(workingIn(s, LOCALES, 'fr-CA', localized), {
      fields: { color: 'red', title: 'Bonjour', body: 'Body' },
      fallbacks: { title: 'fr', body: 'en' },
    });
    assert.deepEqual(workingIn(s, LOCALES, 'en', localized).fallbacks, {});
  });

  it('without fallback, a working copy is the locale’s own values and the shared ones', () => {
    const s = slots([row('fr', { title: 'Bonjour' }, null)]);
    assert.deepEqual(workingIn(s, LOCALES, 'fr', localized, false), {
      fields: { color: 'red', title: 'Bonjour' },
      fallbacks: {},
    });
    assert.deepEqual(workingIn(s, LOCALES, 'fr-CA', localized, false), {
      fields: { color: 'red' },
      fallbacks: {},
    });
  });

  it('hides a removed locale and the default locale’s stray row', () => {
    const s = slots([row('de', { title: 'Hallo' }, { title: 'Hallo' }), row('en', { title: 'x' }, null)]);
    const withoutDe = { ...LOCALES };
    assert.equal(workingIn(s, withoutDe, 'en', localized).fields.title, 'Hello');
    assert.equal(
      publishedView(s, { default: 'en', available: [{ code: 'en' }] }, 'en', localized)?.version,
      5,
    );
  });

  it('versions: the default’s is the entry’s; another’s is the shared count plus its own (1 without a row)', () => {
    const s = slots([row('fr', {}, null, 4)]);
    assert.equal(versionIn(s, LOCALES, 'en'), 7);
    assert.equal(versionIn(s, LOCALES, 'fr'), 7);
    assert.equal(versionIn(s, LOCALES, 'fr-CA'), 4);
    const statuses = statusesOf(s, LOCALES, localized);
    assert.deepEqual(
      Object.entries(statuses).map(([code, v]) => [code, v.version]),
      [
        ['en', 7],
        ['fr', 7],
        ['fr-CA', 4],
      ],
    );
  });

  it('a visitor sees shared values of the copy served and localized values along the chain', () => {
    const s = slots([row('fr', { title: 'Bonjour' }, { color: 'green', title: 'Bonjour' })]);
    const view = publishedView(s, LOCALES, 'fr-CA', localized);
    assert.deepEqual(view?.fields, { color: 'green', title: 'Bonjour', body: 'Body' });
    assert.equal(view?.servedFrom, 'fr');
    assert.equal(publishedView(s, LOCALES, 'fr-CA', localized, false), null);
  });

  it('status in a locale: published while its copy is what a publish would make now', () => {
    const s = slots([row('fr', { title: 'Bonjour' }, { color: 'red', title: 'Bonjour' })]);
    assert.equal(statusIn(s, LOCALES, 'fr', localized).status, 'published');
    assert.equal(statusIn(s, LOCALES, 'en', localized).status, 'draft');
    assert.equal(statusIn(s, LOCALES, 'fr-CA', localized).status, 'draft');
  });

  it('rules read a missing localized value from the chain’s published copies', () => {
    const s = slots([]);
    assert.deepEqual(valuesForRules(s, LOCALES, 'fr', localized), {
      color: 'red',
      body: 'Body',
      title: 'Hello',
    });
  });
});
