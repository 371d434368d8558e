import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../helpers/app.js';
import { heroEntry, newSite, patchEntry, visitorEntries } from '../helpers/content.js';
import { createTestDatabase } from '../helpers/db.js';

/**
 * A request that reaches an instance while it shuts down (on a connection that was busy when closing
 * began: new connections are refused) gets the envelope's 503 with Retry-After and `Connection: close`,
 * so the client or the load balancer retries elsewhere; the request in flight is still answered.
 */
it('a request arriving while the app closes is a 503 envelope that closes the connection', async () => {
  const database = await createTestDatabase('sqlite');
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-closing-'));
  const app = await buildApp({ config: testConfig({ CMS_DATA_DIR: dataDir }), database: database.handle });
  try {
    // A published page in the cache: outside closing, the fast path (src/http/fast-reads.ts) answers it.
    const site = await newSite(app);
    const hero = await heroEntry(app, site);
    assert.equal((await patchEntry(app, site, hero, { status: 'published' })).status, 200);
    assert.equal((await visitorEntries(app, site, '/')).length, 1);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const socket = connect(Number(new URL(address).port), '127.0.0.1');
    await once(socket, 'connect');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk;
    });
    const ended = once(socket, 'close');

    // A login whose body is still arriving when closing begins, then a second request behind it.
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'wrong password' });
    socket.write(
      `POST /v1/auth/login HTTP/1.1\r\nHost: folio\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await new Promise((r) => setTimeout(r, 50));
    const closed = app.close();
    await new Promise((r) => setTimeout(r, 50));
    socket.write(
      `${body.slice(5)}GET /v1/content/%2F HTTP/1.1\r\nHost: folio\r\nx-cms-key: ${site.project.apiKey}\r\n\r\n`,
    );
    await ended;
    await closed;

    const [first, second] = received.split(/(?=HTTP\/1\.1 )/);
    assert.match(first ?? '', /^HTTP\/1\.1 401 /, 'the request in flight is answered');
    assert.match(second ?? '', /^HTTP\/1\.1 503 /, received);
    const [head = '', payload = ''] = (second ?? '').split('\r\n\r\n');
    assert.match(head, /\r\ncontent-type: application\/json/i);
    assert.match(head, /\r\nconnection: close/i);
    assert.match(head, /\r\nretry-after: \d+/i);
    assert.match(head, /\r\nx-request-id: /i);
    const envelope = JSON.parse(payload);
    assert.equal(envelope.data, null);
    assert.equal(envelope.error.code, 'unavailable');
  } finally {
    await app.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
