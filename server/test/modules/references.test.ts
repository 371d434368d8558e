import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { newSite, patchEntry } from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';
import { entriesOn, marketingSite, PERSON, put, read, TESTIMONIAL } from '../helpers/references.js';

/** References (contract §13, §17): checked on write, resolved on reads, coherent on every change. */

const previewToken = async (
  app: Parameters<typeof newSite>[0],
  site: Awaited<ReturnType<typeof newSite>>,
) => {
  const res = await call(app, { method: 'POST', url: '/v1/preview-tokens', headers: site.editing });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data.token as string;
};

describeEachDb('references', (ctx) => {
  it('a written reference must name an entry of this project of an allowed component: 400 with the path', async () => {
    const site = await newSite(ctx.app);
    const other = await newSite(ctx.app, 'Other');
    const ids = await marketingSite(ctx.app, site);
    const foreign = await entriesOn(ctx.app, other, '@site', [{ ...PERSON, instanceKey: 'x' }]);
    const cases: [object, string, RegExp][] = [
      [
        { featured: 'ent_01JD3ZK4Q7M2X8V5B6N9C0R1T9' },
        'body.fields.featured',
        /not an entry of this project/,
      ],
      [{ featured: foreign.x as string }, 'body.fields.featured', /not an entry of this project/],
      [{ featured: ids.ada }, 'body.fields.featured', /is a Person; this field refers to Testimonial only/],
      [{ picks: [ids.q1, ids.ada] }, 'body.fields.picks[1]', /Testimonial only/],
      [
        { rows: [{ ref: ids.ada }, { ref: 'ent_01JD3ZK4Q7M2X8V5B6N9C0R1T9' }] },
        'body.fields.rows[1].ref',
        /not an entry/,
      ],
      [{ picks: [ids.q1, ids.q1] }, 'body.fields.picks[1]', /twice/],
    ];
    for (const [fields, path, message] of cases) {
      const res = await patchEntry(ctx.app, site, ids.home, { fields });
      assert.equal(res.status, 400, `${JSON.stringify(fields)}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'validation_failed');
      const problem = res.body.error.details.find((d: { path: string }) => d.path === path);
      assert.ok(problem, `${path} in ${JSON.stringify(res.body.error.details)}`);
      assert.match(problem.message, message);
    }
    // Nothing was written.
    const editor = await read(ctx.app, site.editing, '/');
    assert.equal(editor.body.data[0].fields.featured, ids.q1);
  });

  it('a reference to itself and a cycle of two are stored, and resolution ends', async () => {
    const site = await newSite(ctx.app);
    const ids = await marketingSite(ctx.app, site); // q1 -> q2 -> q1 already
    await put(ctx.app, site, ids.q1, { seeAlso: ids.q1 }); // and q1 -> q1
    const depth3 = await read(ctx.app, site.key, '@site', '?depth=3');
    assert.equal(depth3.status, 200);
    const q1 = depth3.body.data.find((e: { id: string }) => e.id === ids.q1);
    assert.deepEqual(q1.fields.seeAlso, { id: ids.q1 }); // itself: on the chain
    const q2 = depth3.body.data.find((e: { id: string }) => e.id === ids.q2);
    assert.equal(q2.fields.seeAlso.id, ids.q1);
    assert.deepEqual(q2.fields.seeAlso.fields.seeAlso, { id: ids.q1 }); // q2 -> q1 -> q1: a cycle
    assert.equal(q2.fields.seeAlso.fields.author.fields.name, 'Ada');
  });

  it('a stored reference to an entry deleted since is no 400 on later writes', async () => {
    const site = await newSite(ctx.app);
    const ids = await marketingSite(ctx.app, site);
    const gone = await call(ctx.app, {
      method: 'DELETE',
      url: `/v1/content/${ids.q2}?force=true`,
      headers: { ...site.key, ...bearer(site.admin.token) },
    });
    assert.equal(gone.status, 200, JSON.stringify(gone.body));
    // Another field, and the same list sent back whole: what the write introduces is judged, not what it kept.
    assert.equal((await patchEntry(ctx.app, site, ids.home, { fields: { heading: 'New' } })).status, 200);
    const again = await patchEntry(ctx.app, site, ids.home, { fields: { picks: [ids.q2, ids.q1] } });
    assert.equal(again.status, 200, JSON.stringify(again.body));
  });

  it('at publish, a reference to an entry deleted since counts as missing: required and min fire', async () => {
    const site = await newSite(ctx.app);
    const ids = await entriesOn(ctx.app, site, '@site', [
      { ...PERSON, instanceKey: 'p' },
      {
        componentId: 'Byline',
        instanceKey: 'b',
        fields: [
          { key: 'author', type: 'reference', required: true },
          { key: 'also', type: 'reference', multiple: true, min: 1 },
        ],
      },
    ]);
    await put(ctx.app, site, ids.b as string, { author: ids.p, also: [ids.p] }, true);
    const forced = await call(ctx.app, {
      method: 'DELETE',
      url: `/v1/content/${ids.p}?force=true`,
      headers: { ...site.key, ...bearer(site.admin.token) },
    });
    assert.equal(forced.status, 200);
    const refused = await patchEntry(ctx.app, site, ids.b as string, { status: 'published' });
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.deepEqual(refused.body.error.details.map((d: { path: string }) => d.path).sort(), [
      'fields.also',
      'fields.author',
    ]);
  });

  it('visitors read references resolved to ?depth= (default 1); invisible targets are null or left out', async () => {
    const site = await newSite(ctx.app);
    const ids = await marketingSite(ctx.app, site);
    const [home] = (await read(ctx.app, site.key, '/')).body.data;
    assert.deepEqual(home.fields.featured, {
      id: ids.q1,
      pageId: '@site',
      instanceKey: 'quote-1',
      componentId: 'Testimonial',
      fields: { quote: 'Fast.', author: { id: ids.ada }, seeAlso: { id: ids.q2 } },
    });
    assert.deepEqual(
      home.fields.picks.map((p: { id: string }) => p.id),
      [ids.q1, ids.q2],
    );
    assert.equal(home.fields.rows[0].ref.fields.name, 'Ada');
    assert.match(home.fields.rows[0]._key, /^[A-Za-z0-9]{12}$/);

    const [zero] = (await read(ctx.app, site.key, '/', '?depth=0')).body.data;
    assert.deepEqual(zero.fields.featured, { id: ids.q1 });
    assert.deepEqual(zero.fields.picks, [{ id: ids.q1 }, { id: ids.q2 }]);
    const [two] = (await read(ctx.app, site.key, '/', '?depth=2')).body.data;
    assert.equal(two.fields.featured.fields.author.fields.name, 'Ada');
    assert.deepEqual(two.fields.featured.fields.seeAlso.fields.author, { id: ids.grace });
    for (const bad of ['4', '-1', 'x', '1.5']) {
      const res = await read(ctx.app, site.key, '/', `?depth=${bad}`);
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.error.code, 'validation_failed');
    }

    // Unpublished: null in a single reference, left out of a multiple one.
    const down = await call(ctx.app, {
      method: 'POST',
      url: `/v1/content/${ids.q1}/unpublish`,
      headers: site.editing,
    });
    assert.equal(down.status, 200);
    const [after] = (await read(ctx.app, site.key, '/')).body.data;
    assert.equal(after.fields.featured, null);
    assert.deepEqual(
      after.fields.picks.map((p: { id: string }) => p.id),
      [ids.q2],
    );
  });

  it('a preview token reads working copies resolved; a session reads stored ids unless ?resolve=true', async () => {
    const site = await newSite(ctx.app);
    const ids = await marketingSite(ctx.app, site);
    await put(ctx.app, site, ids.q1, { quote: 'Draft quote.' }, true);
    const token = await previewToken(ctx.app, site);
    const [preview] = (await read(ctx.app, { ...site.key, 'x-cms-preview': token }, '/')).body.data;
    assert.equal(preview.fields.featured.fields.quote, 'Draft quote.');
    assert.ok(Array.isArray(preview.problems));
    const [session] = (await read(ctx.app, site.editing, '/')).body.data;
    assert.equal(session.fields.featured, ids.q1);
    const [resolved] = (await read(ctx.app, site.editing, '/', '?resolve=true')).body.data;
    assert.equal(resolved.fields.featured.fields.quote, 'Draft quote.');
    const [visitor] = (await read(ctx.app, site.key, '/')).body.data;
    assert.equal(visitor.fields.featured.fields.quote, 'Fast.');
    // GET /v1/entries/:entryId reads the same way.
    const entry = (headers: Record<string, string>, query = '') =>
      call(ctx.app, { method: 'GET', url: `/v1/entries/${ids.home}${query}`, headers });
    const byPreview = await entry({ ...site.key, 'x-cms-preview': token }, '?depth=2');
    assert.equal(byPreview.status, 200, JSON.stringify(byPreview.body));
    assert.equal(byPreview.body.data.fields.featured.fields.author.fields.name, 'Ada');
    assert.equal((await entry(site.editing)).body.data.fields.featured, ids.q1);
    assert.equal(
      (await entry(site.editing, '?resolve=true')).body.data.fields.featured.fields.quote,
      'Draft quote.',
    );
  });

  it('a publish, unpublish or deletion of a referenced entry changes the page and its ETag at once', async () => {
    const site = await newSite(ctx.app);
    const ids = await marketingSite(ctx.app, site);
    const first = await read(ctx.app, site.key, '/');
    const etag = first.headers.etag as string;
    assert.ok(etag);
    assert.equal((await read(ctx.app, { ...site.key, 'if-none-match': etag }, '/')).status, 304);

    await put(ctx.app, site, ids.q1, { quote: 'Faster.' });
    const published = await read(ctx.app, { ...site.key, 'if-none-match': etag }, '/');
    assert.equal(published.status, 200);
    assert.equal(published.body.data[0].fields.featured.fields.quote, 'Faster.');
    assert.notEqual(published.headers.etag, etag);
    // A second level: the author's page changes the depth-2 answer.
    assert.equal(
      (await read(ctx.app, site.key, '/', '?depth=2')).body.data[0].fields.featured.fields.author.fields.name,
      'Ada',
    );
    await put(ctx.app, site, ids.ada, { name: 'Ada L.' });
    assert.equal(
      (await read(ctx.app, site.key, '/', '?depth=2')).body.data[0].fields.featured.fields.author.fields.name,
      'Ada L.',
    );

    const forced = await call(ctx.app, {
      method: 'DELETE',
      url: `/v1/content/${ids.q2}?force=true`,
      headers: { ...site.key, ...bearer(site.admin.token) },
    });
    assert.equal(forced.status, 200);
    const [after] = (await read(ctx.app, site.key, '/')).body.data;
    assert.deepEqual(
      after.fields.picks.map((p: { id: string }) => p.id),
      [ids.q1],
    );
    assert.deepEqual(
      after.fields.rows.map((r: { ref: unknown }) => r.ref === null),
      [false, true],
    );
  });

  it('GET /v1/content/:entryId/references lists who refers to it, per copy and path', async () => {
    const site = await newSite(ctx.app);
    const ids = await marketingSite(ctx.app, site);
    await put(ctx.app, site, ids.home, { featured: ids.q2 }, true); // the working copy moves on
    const res = await call(ctx.app, {
      method: 'GET',
      url: `/v1/content/${ids.q1}/references`,
      headers: site.editing,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const row = (
      id: string,
      pageId: string,
      instanceKey: string,
      componentId: string,
      path: string,
      copy: string,
    ) => ({
      id,
      pageId,
      instanceKey,
      componentId,
      path,
      locale: null,
      copy,
    });
    assert.deepEqual(res.body.data, [
      row(ids.home, '/', 'testimonials', 'Testimonials', 'fields.featured', 'published'),
      row(ids.home, '/', 'testimonials', 'Testimonials', 'fields.picks[0]', 'published'),
      row(ids.home, '/', 'testimonials', 'Testimonials', 'fields.picks[0]', 'working'),
      row(ids.q2, '@site', 'quote-2', 'Testimonial', 'fields.seeAlso', 'published'),
      row(ids.q2, '@site', 'quote-2', 'Testimonial', 'fields.seeAlso', 'working'),
    ]);
    const rows = await call(ctx.app, {
      method: 'GET',
      url: `/v1/content/${ids.q2}/references`,
      headers: site.editing,
    });
    assert.ok(rows.body.data.some((r: { path: string }) => r.path === 'fields.rows[1].ref'));
    const missing = await call(ctx.app, {
      method: 'GET',
      url: '/v1/content/ent_01JD3ZK4Q7M2X8V5B6N9C0R1T9/references',
      headers: site.editing,
    });
    assert.equal(missing.status, 404);
    assert.equal(
      (await call(ctx.app, { method: 'GET', url: `/v1/content/${ids.q1}/references`, headers: site.key }))
        .status,
      401,
    );
  });

  it('deleting what published content refers to is 409 listing the referrers, unless ?force=true', async () => {
    const site = await newSite(ctx.app);
    const ids = await marketingSite(ctx.app, site);
    const admin = { ...site.key, ...bearer(site.admin.token) };
    const refused = await call(ctx.app, { method: 'DELETE', url: `/v1/content/${ids.ada}`, headers: admin });
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.error.code, 'conflict');
    assert.deepEqual(refused.body.error.details, { referencedBy: [ids.home, ids.q1].sort() });
    assert.equal((await read(ctx.app, site.key, '@site')).body.data.length, 4); // nothing deleted

    // A page: references from its own entries do not count, those from other pages do.
    const page = await call(ctx.app, {
      method: 'DELETE',
      url: `/v1/pages/${encodeURIComponent('@site')}`,
      headers: admin,
    });
    assert.equal(page.status, 409);
    assert.deepEqual(page.body.error.details, { referencedBy: [ids.home] });
    const home = await call(ctx.app, {
      method: 'DELETE',
      url: `/v1/pages/${encodeURIComponent('/')}`,
      headers: admin,
    });
    assert.equal(home.status, 200, JSON.stringify(home.body));
    const nowFree = await call(ctx.app, {
      method: 'DELETE',
      url: `/v1/pages/${encodeURIComponent('@site')}`,
      headers: admin,
    });
    assert.equal(nowFree.status, 200, JSON.stringify(nowFree.body));

    // Only published content counts: a draft reference does not stop a deletion.
    const more = await entriesOn(ctx.app, site, '@more', [
      { ...PERSON, instanceKey: 'p' },
      { ...TESTIMONIAL, instanceKey: 't' },
    ]);
    await put(ctx.app, site, more.t as string, { author: more.p }, true);
    const draftOnly = await call(ctx.app, { method: 'DELETE', url: `/v1/content/${more.p}`, headers: admin });
    assert.equal(draftOnly.status, 200);
  });

  it('a project without references reads as before: stored values, the same bytes', async () => {
    const site = await newSite(ctx.app);
    const ids = await entriesOn(ctx.app, site, '/', [{ ...PERSON, instanceKey: 'p' }]);
    await put(ctx.app, site, ids.p as string, { name: 'ent_01JD3ZK4Q7M2X8V5B6N9C0R1T2', extra: ['x'] });
    const res = await read(ctx.app, site.key, '/');
    assert.deepEqual(res.body.data[0].fields, { name: 'ent_01JD3ZK4Q7M2X8V5B6N9C0R1T2', extra: ['x'] });
  });
});
