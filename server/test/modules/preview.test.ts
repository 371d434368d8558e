import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { transactionWithChanges } from '../../src/db/dialect/change-bus.js';
import type { JobContext } from '../../src/jobs/types.js';
import { prunePreviewTokens } from '../../src/modules/preview/preview.jobs.js';
import { endPreviewTokensOf } from '../../src/modules/preview/preview.service.js';
import { sha256Hex } from '../../src/shared/secrets.js';
import { describeEachDb } from '../helpers/app.js';
import { heroEntry, newSite, pageUrl, patchEntry, type Site } from '../helpers/content.js';
import { bearer, call, joinProject } from '../helpers/factories.js';

describeEachDb('preview tokens', (ctx) => {
  let base = '';
  before(async () => {
    // A listening server too: the revalidation fast path only exists on the real server.
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await ctx.app.close();
  });

  const createToken = (
    site: Site,
    payload: object = {},
    headers: Record<string, string> = { ...bearer(site.editor.token), ...site.key },
  ) => call(ctx.app, { method: 'POST', url: '/v1/preview-tokens', headers, payload });

  async function adminTokenOf(site: Site): Promise<string> {
    const res = await createToken(site, {}, { ...site.key, ...bearer(site.admin.token) });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.token;
  }

  async function tokenOf(site: Site): Promise<string> {
    const res = await createToken(site);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.token;
  }

  /** A site whose hero entry is published as "Live", then edited to "Draft" (not published). */
  async function editedSite() {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    assert.equal(
      (await patchEntry(ctx.app, site, id, { fields: { title: 'Live' }, status: 'published' })).status,
      200,
    );
    assert.equal((await patchEntry(ctx.app, site, id, { fields: { title: 'Draft' } })).status, 200);
    return { site, id };
  }

  it('a member creates a token: 201, cms_pv_, default lifetime one hour, stored only as a hash', async () => {
    const site = await newSite(ctx.app);
    const before = Date.now();
    const res = await createToken(site);
    assert.equal(res.status, 201);
    const { token, expiresAt } = res.body.data;
    assert.match(token, /^cms_pv_[A-Za-z0-9_-]{43}$/);
    const lifetime = Date.parse(expiresAt) - before;
    assert.ok(lifetime >= 3_599_000 && lifetime <= 3_601_000 + 5_000, `lifetime ${lifetime}`);
    const rows = await ctx.db
      .selectFrom('previewTokens')
      .selectAll()
      .where('projectId', '=', site.project.id)
      .execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.tokenHash, sha256Hex(token));
    assert.ok(!JSON.stringify(rows).includes(token));

    // The body is optional.
    const bare = await call(ctx.app, { method: 'POST', url: '/v1/preview-tokens', headers: site.editing });
    assert.equal(bare.status, 201, JSON.stringify(bare.body));

    const short = await createToken(site, { ttlSeconds: 60 });
    assert.equal(short.status, 201);
    assert.ok(Date.parse(short.body.data.expiresAt) - Date.now() <= 61_000);
    // The project may also be named by x-cms-project-id (an admin, no key).
    const byHeader = await createToken(
      site,
      {},
      { ...bearer(site.admin.token), 'x-cms-project-id': site.project.id },
    );
    assert.equal(byHeader.status, 201);
  });

  it('bad input: lifetime out of range, wrong type, unknown property, missing or wrong credential', async () => {
    const site = await newSite(ctx.app);
    for (const payload of [
      { ttlSeconds: 59 },
      { ttlSeconds: 86_401 },
      { ttlSeconds: '600' },
      { ttlSeconds: 60.5 },
      { scope: 'all' },
    ]) {
      const res = await createToken(site, payload);
      assert.equal(res.status, 400, JSON.stringify(payload));
      assert.equal(res.body.error.code, 'validation_failed');
    }
    assert.equal((await createToken(site, {}, site.key)).status, 401); // the publishable key alone
    const other = await newSite(ctx.app);
    // A member of another project naming this one: 403.
    const res = await createToken(
      site,
      {},
      { ...bearer(other.admin.token), 'x-cms-project-id': site.project.id },
    );
    assert.equal(res.status, 403);
    // A preview token cannot make preview tokens (the header is refused there).
    const token = await tokenOf(site);
    const chained = await createToken(site, {}, { ...site.editing, 'x-cms-preview': token });
    assert.equal(chained.status, 400);
  });

  it('with the key, a token sees working copies of a page, private and not stored', async () => {
    const { site } = await editedSite();
    const token = await tokenOf(site);
    const visitor = await call(ctx.app, { method: 'GET', url: pageUrl('/'), headers: site.key });
    assert.equal(visitor.body.data[0].fields.title, 'Live');
    const preview = await call(ctx.app, {
      method: 'GET',
      url: pageUrl('/'),
      headers: { ...site.key, 'x-cms-preview': token },
    });
    assert.equal(preview.status, 200);
    assert.equal(preview.headers['cache-control'], 'private, no-store');
    const editor = await call(ctx.app, { method: 'GET', url: pageUrl('/'), headers: site.editing });
    assert.deepEqual(preview.body.data, editor.body.data);
    assert.equal(preview.body.data[0].fields.title, 'Draft');
    assert.equal(preview.body.data[0].status, 'draft');
  });

  it('with the key, a token reads the objects draft overlay; the key alone still cannot', async () => {
    const site = await newSite(ctx.app);
    const saved = await call(ctx.app, {
      method: 'POST',
      url: '/v1/objects/save',
      headers: { ...bearer(site.admin.token), 'x-cms-project-id': site.project.id },
      payload: { objects: [{ type: 'product', id: 'p1', fields: { title: 'Unreleased' } }] },
    });
    assert.equal(saved.status, 200);
    const token = await tokenOf(site);
    const draft = await call(ctx.app, {
      method: 'GET',
      url: '/v1/objects?draft=true',
      headers: { ...site.key, 'x-cms-preview': token },
    });
    assert.equal(draft.status, 200);
    assert.equal(draft.headers['cache-control'], 'private, no-store');
    assert.deepEqual(draft.body.data[0].fields, { title: 'Unreleased' });
    assert.equal(
      (await call(ctx.app, { method: 'GET', url: '/v1/objects?draft=true', headers: site.key })).status,
      403,
    );
  });

  it('an unknown or expired token is 401; a token of another project is 403; a token needs the key', async () => {
    const { site } = await editedSite();
    const read = (headers: Record<string, string>) =>
      call(ctx.app, { method: 'GET', url: pageUrl('/'), headers });
    const unknown = await read({ ...site.key, 'x-cms-preview': 'cms_pv_nope' });
    assert.equal(unknown.status, 401);
    assert.equal(unknown.body.error.code, 'unauthorized');

    const token = await tokenOf(site);
    await sql`update preview_tokens set expires_at = '2000-01-01T00:00:00.000Z' where token_hash = ${sha256Hex(token)}`.execute(
      ctx.db,
    );
    assert.equal((await read({ ...site.key, 'x-cms-preview': token })).status, 401);
    assert.equal(
      (
        await call(ctx.app, {
          method: 'GET',
          url: '/v1/objects?draft=true',
          headers: { ...site.key, 'x-cms-preview': token },
        })
      ).status,
      401,
    );

    const other = await newSite(ctx.app);
    const foreign = await tokenOf(other);
    const res = await read({ ...site.key, 'x-cms-preview': foreign });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'forbidden');

    const fresh = await tokenOf(site);
    assert.equal((await read({ 'x-cms-preview': fresh })).status, 401); // without x-cms-key
  });

  it('x-cms-preview where no preview is read is 400 at headers.x-cms-preview, whatever else is sent; nothing is written', async () => {
    const { site, id } = await editedSite();
    const token = await tokenOf(site);
    const admin = { ...bearer(site.admin.token), 'x-cms-project-id': site.project.id };
    // A valid token and a junk one alike: the header itself is the client's bug.
    for (const preview of [token, 'cms_pv_junk', '']) {
      const attempts = [
        { method: 'GET', url: '/v1/auth/me', headers: bearer(site.editor.token) },
        { method: 'GET', url: '/v1/projects', headers: bearer(site.admin.token) },
        {
          method: 'POST',
          url: '/v1/api-keys',
          headers: bearer(site.admin.token),
          payload: { name: 'k', scope: 'all', access: 'read' },
        },
        {
          method: 'PATCH',
          url: `/v1/content/${id}`,
          headers: site.editing,
          payload: { status: 'published' },
        },
        { method: 'PATCH', url: `/v1/content/${id}`, headers: site.key, payload: { status: 'published' } },
        { method: 'POST', url: `/v1/content/${id}/unpublish`, headers: site.editing },
        { method: 'POST', url: '/v1/content/bulk-publish', headers: site.editing, payload: { pageId: '/' } },
        {
          method: 'POST',
          url: '/v1/objects/save',
          headers: admin,
          payload: { objects: [{ type: 't', id: 'x', fields: { a: 1 } }] },
        },
        { method: 'GET', url: `/v1/content/${id}/history`, headers: admin },
        { method: 'POST', url: '/v1/preview-tokens', headers: site.editing, payload: {} },
        { method: 'DELETE', url: '/v1/preview-tokens', headers: site.editing },
        {
          method: 'POST',
          url: '/v1/auth/login',
          payload: { email: site.editor.email, password: site.editor.password },
        },
        { method: 'GET', url: `/v1/projects/${site.project.id}`, headers: bearer(site.admin.token) },
      ] as const;
      for (const attempt of attempts) {
        const res = await call(ctx.app, {
          ...attempt,
          headers: { ...('headers' in attempt ? attempt.headers : {}), 'x-cms-preview': preview },
        } as never);
        const where = `${attempt.method} ${attempt.url} (${preview || 'empty'}): ${JSON.stringify(res.body)}`;
        assert.equal(res.status, 400, where);
        assert.equal(res.body.error.code, 'validation_failed', where);
        assert.equal(res.body.error.details[0].path, 'headers.x-cms-preview', where);
      }
    }
    // Nothing was published, saved or made.
    const visitor = await call(ctx.app, { method: 'GET', url: pageUrl('/'), headers: site.key });
    assert.equal(visitor.body.data[0].fields.title, 'Live');
    const keys = await call(ctx.app, {
      method: 'GET',
      url: '/v1/api-keys',
      headers: bearer(site.admin.token),
    });
    assert.deepEqual(keys.body.data, []);
    const tokens = await ctx.db
      .selectFrom('previewTokens')
      .select('tokenHash')
      .where('projectId', '=', site.project.id)
      .execute();
    assert.equal(tokens.length, 1);

    // The snapshot still refuses a valid token (403) and an unknown one (401).
    const snapshot = (preview: string) =>
      call(ctx.app, {
        method: 'GET',
        url: '/v1/snapshot',
        headers: { ...site.key, 'x-cms-preview': preview },
      });
    assert.equal((await snapshot(token)).status, 403);
    assert.equal((await snapshot('cms_pv_junk')).status, 401);
    // A definitions sync ignores it: a site in preview still registers its components.
    for (const preview of [token, 'cms_pv_junk']) {
      const res = await call(ctx.app, {
        method: 'POST',
        url: '/v1/definitions/sync',
        headers: { ...site.key, 'x-cms-preview': preview },
        payload: { pageId: '/synced', components: [] },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
  });

  it('the revalidation fast path steps aside for a preview token (drafts, and its 401)', async () => {
    const { site } = await editedSite();
    const token = await tokenOf(site);
    const first = await fetch(`${base}${pageUrl('/')}`, { headers: site.key });
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    const revalidate = (extra: Record<string, string>) =>
      fetch(`${base}${pageUrl('/')}`, { headers: { ...site.key, 'if-none-match': etag, ...extra } });
    assert.equal((await revalidate({})).status, 304); // the fast path is live for this page
    const preview = await revalidate({ 'x-cms-preview': token });
    assert.equal(preview.status, 200);
    assert.equal(preview.headers.get('cache-control'), 'private, no-store');
    assert.equal(((await preview.json()) as any).data[0].fields.title, 'Draft');
    const unknown = await revalidate({ 'x-cms-preview': 'cms_pv_unknown' });
    assert.equal(unknown.status, 401);
    await unknown.arrayBuffer();
  });

  const readWith = (site: Site, token: string, key = site.key) =>
    call(ctx.app, { method: 'GET', url: pageUrl('/'), headers: { ...key, 'x-cms-preview': token } });
  const endTokens = (headers: Record<string, string>) =>
    call(ctx.app, { method: 'DELETE', url: '/v1/preview-tokens', headers });

  it("DELETE /v1/preview-tokens ends the caller's tokens in the project, and only theirs", async () => {
    const { site } = await editedSite();
    const mine = [await tokenOf(site), await tokenOf(site)];
    const admins = await adminTokenOf(site);
    const other = await newSite(ctx.app);
    const elsewhere = await tokenOf(other);
    const res = await endTokens(site.editing);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data, { deleted: 2 });
    for (const token of mine) {
      const read = await readWith(site, token);
      assert.equal(read.status, 401);
      assert.equal(read.body.error.code, 'unauthorized');
    }
    assert.equal((await readWith(site, admins)).status, 200); // another member's token
    assert.equal((await readWith(other, elsewhere)).status, 200); // another project's
    // Nothing left to end: 0, and no second record.
    assert.deepEqual((await endTokens(site.editing)).body.data, { deleted: 0 });
    const activity = await call(ctx.app, {
      method: 'GET',
      url: '/v1/activity?action=preview_tokens.revoked',
      headers: { ...bearer(site.admin.token), 'x-cms-project-id': site.project.id },
    });
    assert.equal(activity.status, 200, JSON.stringify(activity.body));
    assert.equal(activity.body.data.length, 1);
    assert.equal(activity.body.data[0].target.id, site.editor.id);
    assert.ok(!JSON.stringify(activity.body).includes('cms_pv_'));
    // Needs a member's session.
    assert.equal((await endTokens(site.key)).status, 401);
  });

  it('a token ends when its creator is removed from the project (a removed editor reads no drafts)', async () => {
    const { site } = await editedSite();
    const token = await tokenOf(site);
    assert.equal((await readWith(site, token)).status, 200);
    const removed = await call(ctx.app, {
      method: 'DELETE',
      url: `/v1/users/${site.editor.id}`,
      headers: { ...bearer(site.admin.token), 'x-cms-project-id': site.project.id },
    });
    assert.equal(removed.status, 200);
    const read = await readWith(site, token);
    assert.equal(read.status, 401);
    assert.ok(!JSON.stringify(read.body).includes('Draft'));
  });

  it("a token ends when its creator's role changes either way; a name change leaves it", async () => {
    const { site } = await editedSite();
    const admin = { ...bearer(site.admin.token), 'x-cms-project-id': site.project.id };
    const patchEditor = (payload: object) =>
      call(ctx.app, { method: 'PATCH', url: `/v1/users/${site.editor.id}`, headers: admin, payload });
    const token = await tokenOf(site);
    assert.equal((await patchEditor({ name: 'Renamed' })).status, 200);
    assert.equal((await patchEditor({ role: 'editor' })).status, 200); // no change of role
    assert.equal((await readWith(site, token)).status, 200);
    assert.equal((await patchEditor({ role: 'admin' })).status, 200); // a promotion
    assert.equal((await readWith(site, token)).status, 401);
    const again = await tokenOf(site);
    assert.equal((await patchEditor({ role: 'editor' })).status, 200); // a demotion
    assert.equal((await readWith(site, again)).status, 401);
  });

  it('rotating the publishable key ends every token of the project', async () => {
    const { site } = await editedSite();
    const tokens = [await tokenOf(site), await adminTokenOf(site)];
    const other = await newSite(ctx.app);
    const elsewhere = await tokenOf(other);
    const rotated = await call(ctx.app, {
      method: 'POST',
      url: `/v1/projects/${site.project.id}/rotate-key`,
      headers: bearer(site.admin.token),
    });
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    const key = { 'x-cms-key': rotated.body.data.apiKey as string };
    for (const token of tokens) assert.equal((await readWith(site, token, key)).status, 401);
    assert.equal((await readWith(other, elsewhere)).status, 200);
  });

  it("endPreviewTokensOf without a project ends the account's tokens in every project (a password change)", async () => {
    const { site } = await editedSite();
    const token = await tokenOf(site);
    // The same editor, a member of a second project too.
    const other = await newSite(ctx.app);
    await joinProject(ctx.app, other.admin.token, other.project.id, site.editor, 'editor');
    const there = await createToken(other, {}, { ...other.key, ...bearer(site.editor.token) });
    assert.equal(there.status, 201);
    const bystander = await tokenOf(other); // another member's, untouched
    const ended = await transactionWithChanges(ctx.db, ctx.app.changes, (trx, changed) =>
      endPreviewTokensOf(trx, changed, site.editor.id),
    );
    assert.equal(ended, 2);
    assert.equal((await readWith(site, token)).status, 401);
    assert.equal((await readWith(other, there.body.data.token)).status, 401);
    assert.equal((await readWith(other, bystander)).status, 200);
  });

  it('the worker prunes expired tokens and keeps live ones', async () => {
    const site = await newSite(ctx.app);
    const live = await tokenOf(site);
    const dead = await tokenOf(site);
    await sql`update preview_tokens set expires_at = '2000-01-01T00:00:00.000Z' where token_hash = ${sha256Hex(dead)}`.execute(
      ctx.db,
    );
    const log = { info() {}, warn() {}, error() {} };
    await prunePreviewTokens.run({ db: ctx.db, log } as unknown as JobContext, Date.now());
    const left = await ctx.db
      .selectFrom('previewTokens')
      .select('tokenHash')
      .where('projectId', '=', site.project.id)
      .execute();
    assert.deepEqual(
      left.map((r) => r.tokenHash),
      [sha256Hex(live)],
    );
  });
});
