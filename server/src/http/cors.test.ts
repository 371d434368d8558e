import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { originAllowed } from './cors.js';

describe('originAllowed', () => {
  it('allows any origin while the project lists no domains', () => {
    assert.ok(originAllowed('https://anywhere.example', []));
  });

  it('compares the Origin host exactly with each entry, case-insensitively', () => {
    const domains = ['example.com', 'Localhost:5173'];
    assert.ok(originAllowed('https://example.com', domains));
    assert.ok(originAllowed('https://EXAMPLE.com', domains));
    assert.ok(originAllowed('http://localhost:5173', domains));
    assert.ok(!originAllowed('https://www.example.com', domains), 'a subdomain is its own entry');
    assert.ok(!originAllowed('https://example.com.evil.net', domains));
    assert.ok(!originAllowed('http://localhost:5174', domains), 'the port is part of the host');
    assert.ok(!originAllowed('http://localhost', domains));
  });

  it('ignores the scheme and path, and the default port', () => {
    assert.ok(originAllowed('http://example.com', ['example.com']));
    assert.ok(originAllowed('https://example.com:443', ['example.com']));
  });

  it('refuses origins that are not URLs or have no host', () => {
    assert.ok(!originAllowed('null', ['example.com']));
    assert.ok(!originAllowed('not a url', ['example.com']));
    assert.ok(!originAllowed('file:///etc/passwd', ['example.com']));
  });
});
