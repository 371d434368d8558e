import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createFolioClient,
  type FolioClient,
  type FolioResult,
  type Ok,
  type Schemas,
} from '../src/index.js';
import { type RunningFolio, startFolio } from './folio-server.js';

/** The success of a result, or a failure that shows what Folio answered. */
function ok<R>(result: FolioResult<R>): Ok<R> {
  if (!result.ok || result.notModified) {
    const error = result.ok ? 'not modified' : JSON.stringify(result.error);
    throw new assert.AssertionError({ message: `expected a success, got ${result.status}: ${error}` });
  }
  return result;
}

// The README's walk-through (README.md, "A first walk-through with curl"), step by step, through the
// typed client against a real Folio. Each step depends on the ones before, so they run in order.
describe('the README walk-through through @folio/client', () => {
  let folio: RunningFolio;
  let admin: FolioClient;
  let projectId = '';
  let publishableKey = '';
  let entryId = '';

  before(async () => {
    folio = await startFolio();
    admin = createFolioClient({ baseUrl: folio.baseUrl });
  });
  after(async () => {
    await folio?.close();
  });

  it('1. creates a project and its first admin without credentials', async () => {
    const created = ok(
      await admin.POST('/v1/projects', {
        body: {
          name: 'Marketing site',
          admin: { email: 'ada@example.com', password: 'correct horse battery' },
        },
      }),
    );
    assert.equal(created.status, 201);
    const project: Schemas['Project'] = created.data.project;
    assert.match(project.apiKey, /^cms_pk_/);
    assert.equal(created.data.admin.role, 'admin');
  });

  it('2. signs in; a wrong password is a typed error with the codes login documents', async () => {
    const wrong = await admin.POST('/v1/auth/login', {
      body: { email: 'ada@example.com', password: 'not the password' },
    });
    assert.equal(wrong.ok, false);
    if (!wrong.ok) {
      assert.equal(wrong.status, 401);
      assert.equal(wrong.error.code, 'invalid_credentials');
      // @ts-expect-error login never answers not_found: the document lists its codes, the type follows
      const impossible: typeof wrong.error.code = 'not_found';
      assert.ok(impossible);
    }

    const session = ok(
      await admin.POST('/v1/auth/login', {
        body: { email: 'ada@example.com', password: 'correct horse battery' },
      }),
    );
    assert.ok(session.data.token);
    admin.updateCredentials({ session: session.data.token });
  });

  it('3. tells who is signed in and lists their projects', async () => {
    const me = ok(await admin.GET('/v1/auth/me'));
    assert.equal(me.data.email, 'ada@example.com');
    const projects = ok(await admin.GET('/v1/projects'));
    const first = projects.data[0];
    assert.ok(first);
    assert.equal(first.role, 'admin');
    projectId = first.id;
  });

  it('4. invites an editor, then lists the members', async () => {
    const invited = ok(
      await admin.POST('/v1/users', {
        body: {
          email: 'grace@example.com',
          name: 'Grace',
          role: 'editor',
          password: 'another long passphrase',
        },
      }),
    );
    assert.equal(invited.data.role, 'editor');
    const users = ok(await admin.GET('/v1/users'));
    assert.deepEqual(users.data.map((u) => u.email).sort(), ['ada@example.com', 'grace@example.com']);
  });

  it('5. sets the domains and a deploy hook of the project', async () => {
    const patched = ok(
      await admin.PATCH('/v1/projects/{id}', {
        params: { path: { id: projectId } },
        body: {
          domains: ['example.com', 'localhost:5173'],
          deployHooks: [{ id: 'netlify', type: 'generic', url: 'https://api.netlify.com/build_hooks/abc' }],
        },
      }),
    );
    assert.deepEqual(patched.data.domains, ['example.com', 'localhost:5173']);
    assert.equal(patched.data.deployHooks[0]?.hasSecret, false);
  });

  it('6. rotates the session token; the old one stops working', async () => {
    const old = admin.credentials.session;
    const refreshed = ok(await admin.POST('/v1/auth/refresh'));
    admin.updateCredentials({ session: refreshed.data.token });
    assert.notEqual(refreshed.data.token, old);

    const stale = createFolioClient({ baseUrl: folio.baseUrl, credentials: { session: old } });
    const refused = await stale.GET('/v1/auth/me');
    assert.equal(refused.ok, false);
    if (!refused.ok) assert.equal(refused.error.code, 'unauthorized');
  });

  it("7. the site's SDK registers the components of page / with the publishable key", async () => {
    const project = ok(await admin.GET('/v1/projects/{id}', { params: { path: { id: projectId } } }));
    publishableKey = project.data.apiKey;
    const site = createFolioClient({ baseUrl: folio.baseUrl, credentials: { publishableKey } });
    const synced = ok(
      await site.POST('/v1/definitions/sync', {
        body: {
          pageId: '/',
          components: [
            { componentId: 'Hero', instanceKey: 'hero', fields: [{ key: 'title', type: 'text' }] },
          ],
        },
      }),
    );
    assert.deepEqual(synced.data.created, ['hero']);
  });

  it('8. an editor fills the entry and publishes it (session plus the site key)', async () => {
    const editor = createFolioClient({
      baseUrl: folio.baseUrl,
      credentials: { session: admin.credentials.session, publishableKey },
    });
    const drafts = ok(await editor.GET('/v1/content/{id}', { params: { path: { id: '/' } } }));
    const hero = drafts.data[0];
    assert.ok(hero);
    assert.equal(hero.status, 'draft');
    entryId = hero.id;

    const published = ok(
      await editor.PATCH('/v1/content/{id}', {
        params: { path: { id: entryId } },
        body: { fields: { title: 'Hello, world' }, status: 'published' },
      }),
    );
    const entry: Schemas['Entry'] = published.data;
    assert.equal(entry.status, 'published');
    assert.deepEqual(entry.fields, { title: 'Hello, world' });
  });

  it('9. visitors read published content; the snapshot answers 304 to its own ETag', async () => {
    const visitor = createFolioClient({ baseUrl: folio.baseUrl, credentials: { publishableKey } });
    const page = ok(await visitor.GET('/v1/content/{id}', { params: { path: { id: '/' } } }));
    assert.deepEqual(
      page.data.map((e) => e.fields),
      [{ title: 'Hello, world' }],
    );

    const snapshot = ok(await visitor.GET('/v1/snapshot'));
    const body: Schemas['Snapshot'] = snapshot.data;
    assert.deepEqual(body.content['/']?.[0]?.fields, { title: 'Hello, world' });
    assert.equal(snapshot.etag, `"${body.version}"`);

    const again = await visitor.GET('/v1/snapshot', {
      params: { header: { 'If-None-Match': snapshot.etag ?? '' } },
    });
    assert.equal(again.ok && again.notModified, true);
    assert.equal(again.status, 304);
  });

  it('9b. with revalidate, the client sends If-None-Match itself and answers its copy on a 304', async () => {
    const wire: { status: number; ifNoneMatch: string | null }[] = [];
    const visitor = createFolioClient({
      baseUrl: folio.baseUrl,
      credentials: { publishableKey },
      revalidate: true,
      fetch: async (request) => {
        const response = await fetch(request);
        wire.push({ status: response.status, ifNoneMatch: request.headers.get('if-none-match') });
        return response;
      },
    });
    const first = ok(await visitor.GET('/v1/snapshot'));
    const second = ok(await visitor.GET('/v1/snapshot'));
    assert.equal(first.revalidated, false);
    assert.equal(second.revalidated, true);
    assert.equal(second.status, 304);
    assert.deepEqual(second.data, first.data);
    assert.deepEqual(wire, [
      { status: 200, ifNoneMatch: null },
      { status: 304, ifNoneMatch: first.etag },
    ]);

    // A publish changes the version: the same call gets the new snapshot, not the kept one.
    const editor = createFolioClient({
      baseUrl: folio.baseUrl,
      credentials: { session: admin.credentials.session, publishableKey },
    });
    ok(
      await editor.PATCH('/v1/content/{id}', {
        params: { path: { id: entryId } },
        body: { fields: { title: 'Hello again' }, status: 'published' },
      }),
    );
    const third = ok(await visitor.GET('/v1/snapshot'));
    assert.equal(third.revalidated, false);
    assert.deepEqual(third.data.content['/']?.[0]?.fields, { title: 'Hello again' });
  });

  it('10. a server pushes objects with a secret key; visitors read the published overlay', async () => {
    const created = ok(
      await admin.POST('/v1/api-keys', { body: { name: 'importer', scope: 'all', access: 'write' } }),
    );
    assert.match(created.data.key, /^cms_sk_/);

    const server = createFolioClient({
      baseUrl: folio.baseUrl,
      credentials: { secretKey: created.data.key },
    });
    const saved = ok(
      await server.POST('/v1/objects/save', {
        body: {
          status: 'published',
          objects: [
            {
              type: 'product',
              id: 'p1',
              fields: { name: 'Mug', price: 12 },
              collections: { images: [{ itemId: 'i1', value: { url: 'https://cdn.example.com/mug.jpg' } }] },
            },
          ],
        },
      }),
    );
    assert.equal(saved.data.status, 'published');

    const visitor = createFolioClient({ baseUrl: folio.baseUrl, credentials: { publishableKey } });
    // `draft` has a default, so it may be left out (the document no longer marks it required).
    const objects = ok(await visitor.GET('/v1/objects', { params: { query: { types: 'product' } } }));
    const records: Schemas['ObjectRecord'][] = objects.data;
    assert.deepEqual(records[0]?.fields, { name: 'Mug', price: 12 });
    assert.equal(records[0]?.collections.images?.[0]?.itemId, 'i1');
  });

  it('11. creates a signed webhook for publishes; its secret is shown once', async () => {
    const webhook = ok(
      await admin.POST('/v1/webhooks', {
        body: { url: 'https://hooks.example.com/folio', events: ['content.published', 'objects.published'] },
      }),
    );
    const created: Schemas['WebhookWithSecret'] = webhook.data;
    assert.match(created.secret, /^whsec_/);
    assert.deepEqual(created.events, ['content.published', 'objects.published']);
  });
});
