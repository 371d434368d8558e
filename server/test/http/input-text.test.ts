import assert from 'node:assert/strict';
import { it } from 'node:test';
import { MAX_DEPTH } from '../../src/http/input-text.js';
import { describeEachDb } from '../helpers/app.js';
import { heroEntry, newSite, patchEntry } from '../helpers/content.js';
import { bearer, call, newProject, PASSWORD } from '../helpers/factories.js';

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

/**
 * Issue 10 #4 and #5: a NUL reaching a text column was a 500 on PostgreSQL (and stored on SQLite);
 * an unpaired surrogate or 5,000 levels of nesting crashed the handler. One rule, the same 400 on
 * both databases, with the path of the offending value.
 */
describeEachDb('text input: NUL, unpaired surrogates, nesting', (ctx) => {
  const expect400 = (res: { status: number; body: any }, path: string) => {
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.data, null);
    assert.equal(res.body.error.code, 'validation_failed');
    assert.equal(res.body.error.details[0].path, path);
  };

  it('a NUL in a body, a path parameter or a query is a 400 naming it', async () => {
    const login = await call(ctx.app, {
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: 'ada\u0000@example.com', password: PASSWORD },
    });
    expect400(login, 'body.email');
    const created = await call(ctx.app, {
      method: 'POST',
      url: '/v1/projects',
      payload: { name: 'a\u0000b', admin: { email: 'nul@example.com', password: PASSWORD } },
    });
    expect400(created, 'body.name');

    const { admin } = await newProject(ctx.app);
    expect400(
      await call(ctx.app, { method: 'GET', url: '/v1/projects/a%00b', headers: bearer(admin.token) }),
      'params.id',
    );
    expect400(
      await call(ctx.app, { method: 'GET', url: '/v1/media?cursor=a%00b', headers: bearer(admin.token) }),
      'query.cursor',
    );
    const key = await call(ctx.app, {
      method: 'POST',
      url: '/v1/api-keys',
      headers: bearer(admin.token),
      payload: { name: 'k\u0000', scope: 'all', access: 'read' },
    });
    expect400(key, 'body.name');
  });

  it('an unpaired surrogate in a field value or a key is a 400; a proper pair (emoji) is stored', async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    expect400(await patchEntry(ctx.app, site, id, { fields: { title: 'x\ud800' } }), 'body.fields.title');
    expect400(await patchEntry(ctx.app, site, id, { fields: { title: '\udc00' } }), 'body.fields.title');
    expect400(await patchEntry(ctx.app, site, id, { fields: { 'k\ud800': 'v' } }), 'body.fields.k\ud800');
    const ok = await patchEntry(ctx.app, site, id, { fields: { title: 'hello \ud83d\ude00' } });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.data.fields.title, 'hello \ud83d\ude00');
  });

  it(`values nest at most ${MAX_DEPTH} levels: 5,000 is a 400, a value within the bound is stored`, async () => {
    const site = await newSite(ctx.app);
    const id = await heroEntry(ctx.app, site);
    // Sent as text: 5,000 levels are past what JSON.stringify itself can walk in a test.
    const raw = (value: string) =>
      call(ctx.app, {
        method: 'PATCH',
        url: `/v1/content/${id}`,
        headers: { ...site.editing, 'content-type': 'application/json' },
        payload: `{"fields":{"data":${value}}}`,
      });
    for (const value of [
      `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
      `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
    ]) {
      const deep = await raw(value);
      assert.equal(deep.status, 400, JSON.stringify(deep.body).slice(0, 300));
      assert.equal(deep.body.error.code, 'validation_failed');
      assert.match(deep.body.error.details[0].message, /nest deeper than 64/);
    }
    const fine = await patchEntry(ctx.app, site, id, { fields: { data: nested(MAX_DEPTH - 3) } });
    assert.equal(fine.status, 200, JSON.stringify(fine.body).slice(0, 300));
  });
});
