import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { editorEntries, newSite, pageUrl, patchEntry, visitorEntries } from '../helpers/content.js';
import { call } from '../helpers/factories.js';
import { landingEntry, syncAs, VALID } from '../helpers/fields.js';

/** Values of declared fields (contract §13, §17): shapes on every write, rules at publish. */

describeEachDb('field values', (ctx) => {
  it('a value of every type saves; list items and blocks get a 12-character _key that stays', async () => {
    const site = await newSite(ctx.app);
    const id = await landingEntry(ctx.app, site);
    const res = await patchEntry(ctx.app, site, id, { fields: VALID });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const saved = res.body.data.fields;
    const keys = [...saved.features, ...saved.sections].map((i: { _key: string }) => i._key);
    assert.match(keys[0] ?? '', /^[A-Za-z0-9]{12}$/);
    assert.equal(keys[3], 'cta-1');
    assert.equal(new Set(keys).size, 4);
    assert.deepEqual(res.body.data.problems, []);
    // Reordered and sent back with their keys: each item keeps its identity.
    const reordered = [saved.features[1], saved.features[0]];
    const again = await patchEntry(ctx.app, site, id, { fields: { features: reordered } });
    assert.deepEqual(again.body.data.fields.features, reordered);
    // PATCH merges top-level keys only: a sent list replaces the stored one whole.
    const one = await patchEntry(ctx.app, site, id, { fields: { features: [{ title: 'Only' }] } });
    assert.equal(one.body.data.fields.features.length, 1);
    assert.equal(one.body.data.fields.headline, 'Ship faster');
  });

  it('a value of the wrong shape is a 400 with its path, drafts included, and nothing is written', async () => {
    const site = await newSite(ctx.app);
    const id = await landingEntry(ctx.app, site);
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [
        { features: [{ title: 'a' }, { title: 'b' }, { title: 5 }] },
        'body.fields.features[2].title',
        /a string/,
      ],
      [{ variant: 'neon' }, 'body.fields.variant', /one of "light", "dark", "brand"/],
      [{ tags: ['new', 'new'] }, 'body.fields.tags[1]', /twice/],
      [{ sections: [{ _type: 'Video' }] }, 'body.fields.sections[0]._type', /one of "Quote", "Cta"/],
      [
        { features: [{ title: 'a', colour: 'red' }] },
        'body.fields.features[0].colour',
        /not a declared field/,
      ],
      [{ hero: { subtitle: 'x' } }, 'body.fields.hero.subtitle', /not a declared field/],
      [{ features: [{ _key: 'a b', title: 'x' }] }, 'body.fields.features[0]._key', /A-Za-z0-9_-/],
      [
        {
          features: [
            { _key: 'k', title: 'x' },
            { _key: 'k', title: 'y' },
          ],
        },
        'body.fields.features[1]._key',
        /repeats "k"/,
      ],
      [{ hero: { cta: { href: 'javascript:alert(1)' } } }, 'body.fields.hero.cta.href', /http\(s\)/],
      [{ hero: { cta: { pageId: '@site' } } }, 'body.fields.hero.cta.pageId', /shared page/],
      [{ hero: { cta: { pageId: '/', href: '/' } } }, 'body.fields.hero.cta', /pageId/],
      [{ hero: { tint: 'red' } }, 'body.fields.hero.tint', /#rgb/],
      [{ launch: '2026-02-30' }, 'body.fields.launch', /YYYY-MM-DD/],
      [{ updated: '2026-11-27 09:30' }, 'body.fields.updated', /RFC 3339/],
      [{ related: ['not-an-id'] }, 'body.fields.related[0]', /entry id/],
      [{ sections: [{ _type: 'Quote', author: 'ent_x' }] }, 'body.fields.sections[0].author', /entry id/],
      [{ site: 'data:text/html,x' }, 'body.fields.site', /http\(s\)/],
      [
        { features: Array.from({ length: 1001 }, () => ({ title: 'x' })) },
        'body.fields.features',
        /at most 1000 items/,
      ],
      [
        { features: Array.from({ length: 1000 }, () => ({ title: 'x'.repeat(2100) })) },
        'body.fields.features',
        /at most 1048576 bytes/,
      ],
    ];
    // A 2 MB entry whose values are each under the bound.
    const big = 'x'.repeat(700 * 1024);
    cases.push([
      { features: [{ title: big }], sections: [{ _type: 'Cta', label: big }], hero: { image: big } },
      'body.fields',
      /an entry's fields are at most 1048576 bytes/,
    ]);
    for (const [fields, path, message] of cases) {
      const res = await patchEntry(ctx.app, site, id, { fields: { headline: 'changed', ...fields } });
      assert.equal(res.status, 400, `${path}: ${JSON.stringify(res.body).slice(0, 300)}`);
      const problem = res.body.error.details.find((d: { path: string }) => d.path === path);
      assert.ok(problem, `${path} not in ${JSON.stringify(res.body.error.details).slice(0, 400)}`);
      assert.match(problem.message, message);
    }
    const [entry] = await editorEntries(ctx.app, site, '/');
    assert.deepEqual(entry?.fields, {});
    assert.equal(entry?.version, 1);
  });

  it('rules never stop a draft; they stop a publish with 422 unpublishable listing every problem', async () => {
    const site = await newSite(ctx.app);
    const id = await landingEntry(ctx.app, site);
    const draft = {
      headline: 'x'.repeat(61),
      features: [{ title: 'ok' }, { title: '' }],
      slug: 'Not A Slug',
      price: 2.5,
      launch: '2025-01-01',
      sections: [{ _type: 'Quote' }],
      hero: { cta: { pageId: '/nowhere' } },
    };
    const saved = await patchEntry(ctx.app, site, id, { fields: draft });
    assert.equal(saved.status, 200);
    const expected = [
      { path: 'fields.headline', message: 'must be at most 60 characters' },
      { path: 'fields.hero.cta.pageId', message: 'links to "/nowhere", a page this project does not have' },
      { path: 'fields.features[1].title', message: 'is required' },
      { path: 'fields.sections[0].text', message: 'is required' },
      { path: 'fields.launch', message: 'must be on or after 2026-01-01' },
      { path: 'fields.price', message: 'must be a whole number' },
      { path: 'fields.slug', message: 'lowercase letters, digits and dashes' },
      { path: 'fields.tags', message: 'must have at least 1' },
    ];
    const sorted = (list: { path: string }[]) => [...list].sort((a, b) => a.path.localeCompare(b.path));
    assert.deepEqual(sorted(saved.body.data.problems), sorted(expected.map((p) => ({ locale: null, ...p }))));
    const [read] = await editorEntries(ctx.app, site, '/');
    assert.deepEqual(
      sorted((read as unknown as { problems: { path: string }[] }).problems),
      sorted(saved.body.data.problems),
    );

    const refused = await patchEntry(ctx.app, site, id, {
      fields: { meta: 'sent along' },
      status: 'published',
    });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.error.code, 'unpublishable');
    assert.deepEqual(
      sorted(refused.body.error.details),
      sorted(expected.map((p) => ({ entryId: id, locale: null, ...p }))),
    );
    // Nothing written: not published, and the fields sent with the publish were not saved either.
    assert.deepEqual(await visitorEntries(ctx.app, site, '/'), []);
    const [after] = await editorEntries(ctx.app, site, '/');
    assert.equal('meta' in (after?.fields ?? {}), false);
    assert.equal(after?.version, saved.body.data.version);

    const fixed = await patchEntry(ctx.app, site, id, {
      fields: { ...VALID, hero: { cta: { pageId: '/' } } },
      status: 'published',
    });
    assert.equal(fixed.status, 200, JSON.stringify(fixed.body));
    assert.deepEqual(fixed.body.data.problems, []);
    assert.equal((await visitorEntries(ctx.app, site, '/'))[0]?.fields.headline, 'Ship faster');
    // Visitors never get problems.
    assert.equal('problems' in ((await visitorEntries(ctx.app, site, '/'))[0] ?? {}), false);
  });

  it('bulk publish is all or nothing: one entry breaking a rule publishes none of the page', async () => {
    const site = await newSite(ctx.app);
    const id = await landingEntry(ctx.app, site);
    await syncAs(ctx.app, site.editing, {
      pageId: '/',
      components: [{ componentId: 'Note', instanceKey: 'note', fields: [{ key: 'text', type: 'text' }] }],
    });
    const note = (await editorEntries(ctx.app, site, '/')).find((e) => e.instanceKey === 'note')!;
    await patchEntry(ctx.app, site, note.id, { fields: { text: 'fine' } });
    const bulk = () =>
      call(ctx.app, {
        method: 'POST',
        url: '/v1/content/bulk-publish',
        headers: site.editing,
        payload: { pageId: '/' },
      });
    const refused = await bulk();
    assert.equal(refused.status, 422);
    assert.deepEqual(
      refused.body.error.details.map((d: { entryId: string; path: string }) => [d.entryId, d.path]).sort(),
      [
        [id, 'fields.headline'],
        [id, 'fields.tags'],
      ],
    );
    assert.deepEqual(await visitorEntries(ctx.app, site, '/'), []);
    await patchEntry(ctx.app, site, id, { fields: { headline: 'Hi', tags: ['sale'] } });
    const ok = await bulk();
    assert.equal(ok.status, 200);
    assert.equal(ok.body.data.published.length, 2);
  });

  it('unpublish and restore answer with problems; a changed declaration shows in problems, not as a 400', async () => {
    const site = await newSite(ctx.app);
    const id = await landingEntry(ctx.app, site);
    const pub = await patchEntry(ctx.app, site, id, {
      fields: { headline: 'Hi', tags: ['new'] },
      status: 'published',
    });
    assert.equal(pub.status, 200, JSON.stringify(pub.body));
    // A member changes the declaration: the stored headline no longer fits its rule.
    const landing = (await import('../helpers/fields.js')).LANDING;
    const stricter = structuredClone(landing);
    (stricter.fields[0] as { maxLength: number }).maxLength = 1;
    assert.equal((await syncAs(ctx.app, site.editing, { pageId: '/', components: [stricter] })).status, 200);
    const down = await call(ctx.app, {
      method: 'POST',
      url: `/v1/content/${id}/unpublish`,
      headers: site.editing,
    });
    assert.equal(down.status, 200);
    assert.deepEqual(down.body.data.problems, [
      { locale: null, path: 'fields.headline', message: 'must be at most 1 characters' },
    ]);
    const read = await call(ctx.app, { method: 'GET', url: pageUrl('/'), headers: site.editing });
    assert.equal(read.body.data[0].problems.length, 1);

    // The headline becomes a number: a restore of the old text keeps it, and problems say so.
    const numeric = structuredClone(landing);
    numeric.fields[0] = { key: 'headline', type: 'number' } as never;
    assert.equal((await syncAs(ctx.app, site.editing, { pageId: '/', components: [numeric] })).status, 200);
    assert.equal((await patchEntry(ctx.app, site, id, { fields: { headline: 5 } })).status, 200);
    const history = await call(ctx.app, {
      method: 'GET',
      url: `/v1/content/${id}/history`,
      headers: { ...site.editing, 'x-cms-project-id': site.project.id },
    });
    const published = history.body.data.find((h: { action: string }) => h.action === 'publish');
    const restored = await call(ctx.app, {
      method: 'POST',
      url: `/v1/content/${id}/history/${published.id}/restore`,
      headers: site.editing,
    });
    assert.equal(restored.status, 200, JSON.stringify(restored.body));
    assert.equal(restored.body.data.fields.headline, 'Hi');
    assert.deepEqual(restored.body.data.problems, [
      { locale: null, path: 'fields.headline', message: 'must be a finite number (field type "number")' },
    ]);
  });
});
