import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { newSite, pageUrl, patchEntry, sync } from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';

/**
 * Query numbers are plain (contract §23, issue 42 item 9): an integer parameter is `0` or digits
 * without sign, space, leading zero, decimal point or exponent; anything else is 400 naming it.
 * Ajv's coercion (`+text`) used to take `03`, `1e0`, `0x1`, ` 1`, `+1` and `1.0` as numbers.
 */
const ODD = ['03', '00', '1e0', '0x1', '%201', '1%20', '%2B1', '-1', '1.0', '1.', '', '%EF%BC%91', '1_0'];

describeEachDb('integer query parameters', (ctx) => {
  let base = '';
  before(async () => {
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await ctx.app.close();
  });

  async function publishedSite() {
    const site = await newSite(ctx.app);
    await sync(ctx.app, site, '/');
    const [entry] = (await call(ctx.app, { method: 'GET', url: pageUrl('/'), headers: site.editing })).body
      .data;
    const res = await patchEntry(ctx.app, site, entry.id, { fields: { title: 'Hi' }, status: 'published' });
    assert.equal(res.status, 200);
    return { site, entryId: entry.id as string };
  }

  const refusesOdd = async (
    url: (value: string) => string,
    headers: Record<string, string>,
    name: string,
  ) => {
    for (const value of ODD) {
      const res = await call(ctx.app, { method: 'GET', url: url(value), headers });
      assert.equal(res.status, 400, `${name}=${value}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'validation_failed');
      assert.equal(res.body.error.details[0].path, `querystring.${name}`, `${name}=${value}`);
    }
  };

  it('?depth= of a page read takes 0-3 in plain digits only, for visitors and editors', async () => {
    const { site } = await publishedSite();
    for (const headers of [site.key, site.editing]) {
      for (const depth of ['0', '1', '3']) {
        const res = await call(ctx.app, { method: 'GET', url: `${pageUrl('/')}?depth=${depth}`, headers });
        assert.equal(res.status, 200, `depth=${depth}`);
      }
      await refusesOdd((v) => `${pageUrl('/')}?depth=${v}`, headers, 'depth');
      // Repeated: each value must be plain (and then Ajv refuses two values for one integer).
      const twice = await call(ctx.app, { method: 'GET', url: `${pageUrl('/')}?depth=1&depth=01`, headers });
      assert.equal(twice.status, 400);
    }
  });

  it('?depth= of an entry read and a live stream, the same way', async () => {
    const { site, entryId } = await publishedSite();
    await refusesOdd((v) => `/v1/entries/${entryId}?depth=${v}`, site.editing, 'depth');
    await refusesOdd((v) => `/v1/live?pageId=%2F&depth=${v}`, site.key, 'depth');
  });

  it('?limit= of the page list, history, media and activity, the same way', async () => {
    const { site, entryId } = await publishedSite();
    const member = { ...bearer(site.admin.token), 'x-cms-project-id': site.project.id };
    const lists = [
      '/v1/pages?limit=',
      `/v1/content/${entryId}/history?limit=`,
      '/v1/media?limit=',
      '/v1/activity?limit=',
    ];
    for (const list of lists) {
      const ok = await call(ctx.app, { method: 'GET', url: `${list}10`, headers: member });
      assert.equal(ok.status, 200, `${list}10: ${JSON.stringify(ok.body)}`);
      await refusesOdd((v) => `${list}${v}`, member, 'limit');
    }
  });

  it('the fast path serves no odd spelling: a cached page read with ?depth=03 is the route’s 400', async () => {
    const { site } = await publishedSite();
    const warm = await fetch(`${base}${pageUrl('/')}`, { headers: site.key });
    assert.equal(warm.status, 200);
    await warm.arrayBuffer();
    for (const depth of ['03', '1e0', '0x1']) {
      const res = await fetch(`${base}${pageUrl('/')}?depth=${depth}`, { headers: site.key });
      assert.equal(res.status, 400, `depth=${depth}`);
      const body = (await res.json()) as { error: { details: { path: string }[] } };
      assert.equal(body.error.details[0]?.path, 'querystring.depth');
    }
    const plain = await fetch(`${base}${pageUrl('/')}?depth=1`, { headers: site.key });
    assert.equal(plain.status, 200);
    await plain.arrayBuffer();
  });
});
