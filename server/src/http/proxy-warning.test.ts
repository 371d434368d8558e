import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { UNTRUSTED_FORWARDING, untrustedForwardingWarning } from './proxy-warning.js';

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('the warning for X-Forwarded-For without CMS_TRUST_PROXY', () => {
  it('warns once, at the first forwarded request, and never when forwarding is trusted', () => {
    const lines: string[] = [];
    const log = { warn: (msg: string) => lines.push(msg) };
    const untrusted = untrustedForwardingWarning(false, log);
    untrusted(request({}));
    assert.deepEqual(lines, []);
    untrusted(request({ 'x-forwarded-for': '203.0.113.7' }));
    untrusted(request({ 'x-forwarded-for': '203.0.113.8' }));
    assert.deepEqual(lines, [UNTRUSTED_FORWARDING]);
    assert.match(UNTRUSTED_FORWARDING, /CMS_TRUST_PROXY=true/);

    const trusted = untrustedForwardingWarning(true, log);
    trusted(request({ 'x-forwarded-for': '203.0.113.7' }));
    assert.equal(lines.length, 1);
  });
});
