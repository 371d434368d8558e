import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { component, createFolio, reference, type Snapshot } from '../src/index.js';

/**
 * Keys are data in baked mode too (contract §23, issue 42 item 9): a page id or a field key named
 * like an object member (`constructor`, `toString`) is looked up as an own key of the snapshot, never
 * found on Object's prototype. No server: the snapshot is the whole source, and nothing is fetched.
 */
const Card = component('Card', { title: 'text', constructor: reference(), toString: 'text' });

const snapshot: Snapshot = {
  schema: 1,
  version: 'sha256:0',
  generatedAt: '2026-11-29T00:00:00.000Z',
  bakeEnabled: true,
  content: {
    '/': [
      {
        id: 'ent_01JD3ZK4Q7M2X8V5B6N9C0R1T2',
        instanceKey: 'card',
        componentId: 'Card',
        fields: { title: 'Home', toString: 'kept' },
      },
    ],
  },
  objectFields: [],
  objectCollections: [],
  objectTypes: [],
} as unknown as Snapshot;

const offline = () =>
  createFolio({
    url: 'http://127.0.0.1:9',
    key: 'cms_pk_test',
    snapshot,
    components: [Card],
    fetch: () => Promise.reject(new Error('baked mode must not fetch')),
  });

describe('baked mode: keys named like object members', () => {
  it('a page id named constructor or toString is a page the snapshot lacks: no entries', async () => {
    const folio = offline();
    assert.deepEqual(await folio.page('constructor'), []);
    assert.deepEqual(await folio.page('toString'), []);
  });

  it('a field named constructor that the entry lacks stays absent; toString keeps its value', async () => {
    const [card] = await offline().page('/');
    assert.deepEqual(card?.fields, { title: 'Home', toString: 'kept' });
    assert.equal(Object.hasOwn(card?.fields ?? {}, 'constructor'), false);
  });
});
