import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { canonicalJson } from '../../shared/canonical.js';
import {
  canonicalSnapshot,
  computeSnapshotVersion,
  type PublishedEntry,
  SNAPSHOT_SCHEMA,
  type SnapshotSources,
} from './snapshot.service.js';

const noObjects = { objectFields: [], objectCollections: [], objectTypes: [] };
const entry = (pageId: string, instanceKey: string, fields: unknown): PublishedEntry => ({
  id: `ent_${instanceKey}`,
  pageId,
  instanceKey,
  componentId: `C-${instanceKey}`,
  publishedFields: canonicalJson(fields),
});

/** The spliced text must be exactly RFC 8785 of the same data: parse it and canonicalize again. */
const reCanonical = (text: string) => canonicalJson(JSON.parse(text));

describe('canonicalSnapshot', () => {
  it('is the RFC 8785 form of its data, whatever order the rows come in', () => {
    const entries = [
      entry('/b', 'z', { title: 'Z', a: 1 }),
      entry('/a', 'hero', { b: [1, { y: 2, x: 1 }], a: 'é' }),
      entry('/b', 'Z', { emoji: '😀' }),
      entry('/a', 'aside', {}),
    ];
    const objects = {
      objectFields: [{ type: 'p', id: '1', path: 'title', value: 'Hat' }],
      objectCollections: [
        { type: 'p', id: '1', collection: 'c', items: [{ itemId: 'i', value: { b: 1, a: 2 } }] },
      ],
      objectTypes: [{ type: 'p', fields: ['title'], collections: ['c'] }],
    };
    const text = canonicalSnapshot(true, entries, objects);
    assert.equal(text, reCanonical(text));
    assert.equal(canonicalSnapshot(true, [...entries].reverse(), objects), text);
  });

  it('groups entries by page and orders pages and instance keys in code-unit order', () => {
    const text = canonicalSnapshot(
      false,
      [entry('/b', 'b', {}), entry('/a', 'b', {}), entry('/B', 'a', {}), entry('/a', 'B', {})],
      noObjects,
    );
    const data = JSON.parse(text);
    assert.deepEqual(Object.keys(data.content), ['/B', '/a', '/b']);
    assert.deepEqual(
      data.content['/a'].map((e: { instanceKey: string }) => e.instanceKey),
      ['B', 'b'],
    );
    assert.deepEqual(data.content['/a'][0], {
      componentId: 'C-B',
      fields: {},
      id: 'ent_B',
      instanceKey: 'B',
    });
  });

  it('holds the settings and the schema version; an empty project is still a snapshot', () => {
    const text = canonicalSnapshot(false, [], noObjects);
    assert.deepEqual(JSON.parse(text), {
      bakeEnabled: false,
      content: {},
      objectCollections: [],
      objectFields: [],
      objectTypes: [],
      schema: SNAPSHOT_SCHEMA,
    });
    assert.equal(text, reCanonical(text));
  });
});

describe('snapshots of a project with locales', () => {
  const sha = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
  const byLocale = new Map([
    ['en', [entry('/', 'hero', { title: 'Hello' })]],
    ['fr', [entry('/', 'hero', { title: 'Bonjour' })]],
  ]);
  const sources: SnapshotSources = {
    project: async () => ({
      bakeEnabled: true,
      locales: { default: 'en', available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }] },
    }),
    entries: async () => [],
    entriesIn: async (_p, _l, codes) => new Map(codes.map((c) => [c, byLocale.get(c) ?? []])),
    objects: async () => noObjects,
  };

  it('a locale’s snapshot carries `locale`, in canonical order', () => {
    const text = canonicalSnapshot(true, byLocale.get('fr') ?? [], noObjects, 'fr');
    assert.equal(text, reCanonical(text));
    assert.equal(JSON.parse(text).locale, 'fr');
  });

  it('the worker’s version (a repository dispatch’s) is the `*` version, from each locale’s (contract §17)', async () => {
    const versions = Object.fromEntries(
      ['en', 'fr'].map((c) => [c, sha(canonicalSnapshot(true, byLocale.get(c) ?? [], noObjects, c))]),
    );
    const objects = sha(canonicalJson(noObjects));
    assert.equal(
      await computeSnapshotVersion('prj', sources),
      sha(canonicalJson({ defaultLocale: 'en', bakeEnabled: true, versions, objects })),
    );
  });
});
