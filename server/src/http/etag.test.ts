import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cachedJson } from '../shared/cached-json.js';
import { etagMatches } from './etag.js';

describe('etagMatches (If-None-Match, RFC 9110 §13.1.2)', () => {
  const tag = '"abc"';

  it('matches the one tag a client sends back', () => {
    assert.ok(etagMatches('"abc"', tag));
  });

  it('matches inside a list, with or without spaces', () => {
    assert.ok(etagMatches('"x", "abc"', tag));
    assert.ok(etagMatches('"x","abc"', tag));
    assert.ok(etagMatches(['"x"', '"abc"'], tag));
  });

  it('compares weakly: W/ on either side still matches', () => {
    assert.ok(etagMatches('W/"abc"', tag));
    assert.ok(etagMatches('"x", W/"abc"', tag));
    assert.ok(etagMatches('"abc"', 'W/"abc"'));
  });

  it('* matches any current representation', () => {
    assert.ok(etagMatches('*', tag));
    assert.ok(etagMatches('"x", *', tag));
  });

  it('does not match other tags, prefixes, or no header', () => {
    assert.ok(!etagMatches('"abcd"', tag));
    assert.ok(!etagMatches('"ab"', tag));
    assert.ok(!etagMatches('abc', tag));
    assert.ok(!etagMatches('', tag));
    assert.ok(!etagMatches(undefined, tag));
    assert.ok(!etagMatches([], tag));
  });
});

describe('cachedJson', () => {
  it('gives equal bytes the same strong ETag and different bytes different ones', () => {
    const a = cachedJson(Buffer.from('{"data":[],"error":null}'));
    assert.match(a.etag, /^"[A-Za-z0-9_-]{27}"$/);
    assert.equal(cachedJson(Buffer.from('{"data":[],"error":null}')).etag, a.etag);
    assert.notEqual(cachedJson(Buffer.from('{"data":[1],"error":null}')).etag, a.etag);
  });
});
