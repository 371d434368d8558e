import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { bearer, call, newMember, newProject } from '../helpers/factories.js';

describeEachDb('project previewUrl', (ctx) => {
  const patch = (token: string, projectId: string, payload: object) =>
    call(ctx.app, { method: 'PATCH', url: `/v1/projects/${projectId}`, headers: bearer(token), payload });
  const get = (token: string, projectId: string) =>
    call(ctx.app, { method: 'GET', url: `/v1/projects/${projectId}`, headers: bearer(token) });

  it('is null at first; an admin sets it, every member reads it, null clears it; the activity log names it', async () => {
    const { project, admin } = await newProject(ctx.app);
    const editor = await newMember(ctx.app, admin.token, project.id, 'editor');
    assert.equal((await get(admin.token, project.id)).body.data.previewUrl, null);

    for (const url of [
      'https://example.com{pageId}',
      'http://localhost:3000{pageId}?x=1',
      'https://example.com/preview?path={pageId}',
    ]) {
      const set = await patch(admin.token, project.id, { previewUrl: url });
      assert.equal(set.status, 200, url);
      assert.equal(set.body.data.previewUrl, url);
      assert.equal((await get(editor.token, project.id)).body.data.previewUrl, url);
    }
    const list = await call(ctx.app, { method: 'GET', url: '/v1/projects', headers: bearer(editor.token) });
    assert.equal(list.body.data[0].previewUrl, 'https://example.com/preview?path={pageId}');

    const denied = await patch(editor.token, project.id, { previewUrl: 'https://evil.example{pageId}' });
    assert.equal(denied.status, 403);

    const cleared = await patch(admin.token, project.id, { previewUrl: null });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.data.previewUrl, null);

    const log = await call(ctx.app, {
      method: 'GET',
      url: '/v1/activity?action=project.updated',
      headers: { ...bearer(admin.token), 'x-cms-project-id': project.id },
    });
    assert.equal(log.status, 200);
    assert.ok(log.body.data.length >= 4);
    assert.ok(log.body.data.every((r: { summary: string }) => r.summary.includes('previewUrl')));
  });

  it('refuses non-http(s), a missing {pageId}, credentials, an origin that depends on the page id, and length (400)', async () => {
    const { project, admin } = await newProject(ctx.app);
    await patch(admin.token, project.id, { previewUrl: 'https://example.com{pageId}' });
    for (const previewUrl of [
      'javascript:alert(1)//{pageId}',
      'ftp://example.com{pageId}',
      'example.com{pageId}',
      'https://example.com/',
      'https://user:secret@example.com{pageId}',
      'https://user@example.com{pageId}',
      'https://{pageId}',
      '',
      `https://example.com/${'a'.repeat(2048)}{pageId}`,
      42,
    ]) {
      const res = await patch(admin.token, project.id, { previewUrl });
      assert.equal(res.status, 400, String(previewUrl));
      assert.equal(res.body.error.code, 'validation_failed', String(previewUrl));
      assert.ok(
        res.body.error.details.some((d: { path: string }) => d.path === 'body.previewUrl'),
        JSON.stringify(res.body.error),
      );
    }
    assert.equal((await get(admin.token, project.id)).body.data.previewUrl, 'https://example.com{pageId}');
  });

  it('takes {locale} after the origin, where the pane puts the language it shows; never in the origin', async () => {
    const { project, admin } = await newProject(ctx.app);
    for (const url of ['https://example.com/{locale}{pageId}', 'https://example.com{pageId}?lang={locale}']) {
      const set = await patch(admin.token, project.id, { previewUrl: url });
      assert.equal(set.status, 200, `${url}: ${JSON.stringify(set.body)}`);
    }
    for (const url of ['https://{locale}.example.com{pageId}', 'https://example.{locale}{pageId}']) {
      const res = await patch(admin.token, project.id, { previewUrl: url });
      assert.equal(res.status, 400, url);
      assert.equal(res.body.error.details[0].path, 'body.previewUrl');
    }
  });

  it("another project's admin can neither read nor change it", async () => {
    const a = await newProject(ctx.app);
    const b = await newProject(ctx.app);
    await patch(a.admin.token, a.project.id, { previewUrl: 'https://a.example{pageId}' });
    const read = await get(b.admin.token, a.project.id);
    assert.equal(read.status, 403);
    assert.ok(!JSON.stringify(read.body).includes('a.example'));
    const write = await patch(b.admin.token, a.project.id, { previewUrl: 'https://b.example{pageId}' });
    assert.equal(write.status, 403);
    assert.equal((await get(a.admin.token, a.project.id)).body.data.previewUrl, 'https://a.example{pageId}');
    assert.equal((await get(b.admin.token, b.project.id)).body.data.previewUrl, null);
  });
});
