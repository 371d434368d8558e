import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalJson as serverCanonicalJson } from '../../../server/src/shared/canonical.js';
import { mediaRewriter } from '../src/archive/media-refs.js';
import { canonicalJson, snapshotVersion } from '../src/canonical.js';

const moves = {
  fromProject: 'prj_OLD',
  moved: new Map([['med_A', { id: 'med_NEW', url: 'https://cdn.new.example/media/prj_NEW/med_NEW.png' }]]),
};

describe('media references in imported values', () => {
  it('rewrites addresses of exported files with any origin or none, keeping a variant query', () => {
    const rewriter = mediaRewriter(moves);
    const value = {
      image: 'http://127.0.0.1:3000/media/prj_OLD/med_A.png',
      thumb: 'https://old.example/media/prj_OLD/med_A.png?w=160&h=120',
      relative: '/media/prj_OLD/med_A.png',
      html: '<p><img src="http://old.example/media/prj_OLD/med_A.png"> and <a href="/media/prj_OLD/med_A.png">it</a></p>',
      id: 'med_A',
      nested: [{ url: 'http://x/media/prj_OLD/med_A.png' }],
    };
    const url = 'https://cdn.new.example/media/prj_NEW/med_NEW.png';
    assert.deepEqual(rewriter.rewrite(value), {
      image: url,
      thumb: `${url}?w=160&h=120`,
      relative: url,
      html: `<p><img src="${url}"> and <a href="${url}">it</a></p>`,
      id: 'med_NEW',
      nested: [{ url }],
    });
    assert.equal(rewriter.count, 6);
  });

  it('leaves alone other projects, unknown files, and text that only mentions an id', () => {
    const rewriter = mediaRewriter(moves);
    const value = {
      other: 'http://old.example/media/prj_OTHER/med_A.png',
      unknown: 'http://old.example/media/prj_OLD/med_B.png',
      prose: 'see med_A',
      number: 3,
      nothing: null,
    };
    assert.deepEqual(rewriter.rewrite(value), value);
    assert.equal(rewriter.count, 0);
  });
});

describe('canonical JSON (RFC 8785), as the server hashes its snapshot', () => {
  it('matches the server on keys in code-unit order, escapes and number forms', () => {
    const value = {
      b: [1, 1.5, -0, 1e21, 1e-7, 0.1 + 0.2],
      a: { é: 'x', Z: '\u0000\u001f"\\/\u2028', '\ud83d\ude00': true, '': null },
      c: 'ok',
    };
    assert.equal(canonicalJson(value), serverCanonicalJson(value));
  });

  it("gives a snapshot's version from everything but version and generatedAt", () => {
    const body = {
      schema: 1,
      bakeEnabled: true,
      content: {},
      objectFields: [],
      objectCollections: [],
      objectTypes: [],
    };
    const a = snapshotVersion({ ...body, version: 'x', generatedAt: '2026-01-01T00:00:00.000Z' });
    const b = snapshotVersion({ ...body, version: 'y', generatedAt: '2027-01-01T00:00:00.000Z' });
    assert.equal(a, b);
    assert.match(a, /^sha256:[0-9a-f]{64}$/);
  });
});
