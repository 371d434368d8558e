import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { editorEntries, heroEntry, newSite, pageUrl, patchEntry, sync } from '../helpers/content.js';
import { envelopeProblem } from '../helpers/envelope.js';
import { bearer, call, newMember, newProject } from '../helpers/factories.js';

describeEachDb('GET /v1/entries/:entryId and entry ids where a page id belongs', (ctx) => {
  const read = (entryId: string, headers: Record<string, string>) =>
    call(ctx.app, { method: 'GET', url: `/v1/entries/${entryId}`, headers });

  it('answers one entry exactly as the page read shows it to the same member, drafts included', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    await patchEntry(ctx.app, site, id, { fields: { title: 'Live' }, status: 'published' });
    await patchEntry(ctx.app, site, id, { fields: { title: 'Draft only' } });
    const viewer = await newMember(ctx.app, site.admin.token, site.project.id, 'editor');
    const res = await read(id, { ...site.key, ...bearer(viewer.token) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.headers['cache-control'], 'private, no-store');
    const [fromPage] = await editorEntries(ctx.app, site, '/');
    assert.deepEqual(res.body.data, fromPage);
    assert.equal(res.body.data.fields.title, 'Draft only');
    assert.equal(res.body.data.status, 'draft');
  });

  it('a preview token beside the key reads the working copy too', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    await patchEntry(ctx.app, site, id, { fields: { title: 'Draft' } });
    const token = await call(ctx.app, { method: 'POST', url: '/v1/preview-tokens', headers: site.editing });
    assert.equal(token.status, 201);
    const res = await read(id, { ...site.key, 'x-cms-preview': token.body.data.token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.fields.title, 'Draft');
  });

  it('needs a member session and the key: each refusal is in the envelope', async () => {
    const site = await newSite(ctx.app);
    const other = await newProject(ctx.app, 'Elsewhere');
    const id = await heroEntry(ctx.app, site);
    const cases: [Record<string, string>, number][] = [
      [site.key, 401], // the publishable key alone is a visitor
      [bearer(site.editor.token), 401], // a session without the key
      [{ ...site.key, ...bearer(other.admin.token) }, 403], // not a member of the key's project
    ];
    for (const [headers, status] of cases) {
      const res = await read(id, headers);
      assert.equal(res.status, status, JSON.stringify(res.body));
      assert.equal(envelopeProblem(JSON.stringify(res.body), res.headers['content-type'] as string), null);
    }
  });

  it("another project's entry, or an unknown id, is 404", async () => {
    const site = await newSite(ctx.app);
    const other = await newSite(ctx.app, 'Other');
    const foreign = await heroEntry(ctx.app, other);
    for (const id of [foreign, 'ent_00000000000000000000000000']) {
      const res = await read(id, site.editing);
      assert.equal(res.status, 404);
      assert.equal(res.body.error.code, 'not_found');
    }
  });

  it('a page route given an entry id answers 400 naming GET /v1/entries/:entryId', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    const adminEditing = { ...site.key, ...bearer(site.admin.token) };
    const requests = [
      { method: 'GET' as const, url: pageUrl(id), headers: site.key },
      { method: 'GET' as const, url: pageUrl(id), headers: site.editing },
      { method: 'GET' as const, url: `/v1/definitions/${id}`, headers: bearer(site.editor.token) },
      { method: 'DELETE' as const, url: `/v1/pages/${id}`, headers: adminEditing },
    ];
    for (const request of requests) {
      const res = await call(ctx.app, request);
      assert.equal(res.status, 400, `${request.method} ${request.url}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'validation_failed');
      assert.match(res.body.error.message, /GET \/v1\/entries\/:entryId/);
      assert.equal(res.body.error.details[0].path, 'params.pageId');
      assert.equal(envelopeProblem(JSON.stringify(res.body), res.headers['content-type'] as string), null);
    }
  });

  it('page ids that only look alike stay pages', async () => {
    const site = await newSite(ctx.app);
    for (const pageId of ['ent_short', `/ent_${'A'.repeat(26)}`, `ent_${'a'.repeat(26)}`]) {
      await sync(ctx.app, site, pageId);
      const entries = await editorEntries(ctx.app, site, pageId);
      assert.equal(entries.length, 1, pageId);
    }
  });
});
