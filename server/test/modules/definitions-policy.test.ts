import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { openDatabase } from '../../src/db/connect.js';
import { describeEachDb } from '../helpers/app.js';
import {
  editorEntries,
  HERO,
  newSite,
  patchEntry,
  type Site,
  sync,
  visitorEntries,
} from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';

/** Who may change definitions (contract §11). */

const syncAs = (app: FastifyInstance, headers: Record<string, string>, payload: unknown, query = '') =>
  call(app, { method: 'POST', url: `/v1/definitions/sync${query}`, headers, payload: payload as object });

const definitionsOf = async (app: FastifyInstance, site: Site, pageId: string) => {
  const res = await call(app, {
    method: 'GET',
    url: `/v1/definitions/${encodeURIComponent(pageId)}`,
    headers: bearer(site.editor.token),
  });
  assert.equal(res.status, 200);
  return res.body.data as { componentId: string; instanceKey: string; fields: unknown[] }[];
};

const setMode = (app: FastifyInstance, site: Site, definitionSync: string, token = site.admin.token) =>
  call(app, {
    method: 'PATCH',
    url: `/v1/projects/${site.project.id}`,
    headers: bearer(token),
    payload: { definitionSync },
  });

async function secretKey(app: FastifyInstance, site: Site, access: 'read' | 'write') {
  const res = await call(app, {
    method: 'POST',
    url: '/v1/api-keys',
    headers: bearer(site.admin.token),
    payload: { name: `sync-${access}`, scope: 'selected', projectIds: [site.project.id], access },
  });
  assert.equal(res.status, 201);
  return res.body.data.key as string;
}

/** A published hero whose `count` holds a number, as in the scenario. */
async function publishedHero(app: FastifyInstance, site: Site) {
  await sync(app, site, '/', [HERO]);
  const [hero] = await editorEntries(app, site, '/');
  const published = await patchEntry(app, site, hero!.id, { fields: { count: 3 }, status: 'published' });
  assert.equal(published.status, 200);
  return hero!.id;
}

const BREAKING = {
  pageId: '/',
  components: [
    {
      componentId: 'Defaced',
      instanceKey: 'hero',
      // count becomes text, link is left out, subtitle is new
      fields: [
        { key: 'title', type: 'text' },
        { key: 'count', type: 'text' },
        { key: 'subtitle', type: 'text' },
      ],
    },
  ],
};

describeEachDb('definitions sync: who may change what', (ctx) => {
  it('a project starts additive; only an admin may change the mode', async () => {
    const site = await newSite(ctx.app);
    assert.equal(site.project.definitionSync, 'additive');
    const byEditor = await setMode(ctx.app, site, 'open', site.editor.token);
    assert.equal(byEditor.status, 403);
    const bad = await setMode(ctx.app, site, 'anything');
    assert.equal(bad.status, 400);
    const byAdmin = await setMode(ctx.app, site, 'locked');
    assert.equal(byAdmin.status, 200);
    assert.equal(byAdmin.body.data.definitionSync, 'locked');
    const read = await call(ctx.app, {
      method: 'GET',
      url: `/v1/projects/${site.project.id}`,
      headers: bearer(site.editor.token),
    });
    assert.equal(read.body.data.definitionSync, 'locked');
  });

  it('additive: the publishable key cannot change a live componentId or a field type, nor remove a field', async () => {
    const site = await newSite(ctx.app);
    const heroId = await publishedHero(ctx.app, site);

    const res = await syncAs(ctx.app, site.key, BREAKING);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.created, []);
    assert.deepEqual(
      res.body.data.rejected,
      [
        'componentId stays "Hero": the publishable key cannot change it to "Defaced".',
        'field "count" keeps type "number": the publishable key cannot change it to "text".',
        'field "link" is kept: the publishable key cannot remove fields.',
      ].map((reason) => ({ instanceKey: 'hero', reason })),
    );
    // The new field was taken; everything else stayed as it was.
    const [definition] = await definitionsOf(ctx.app, site, '/');
    assert.equal(definition?.componentId, 'Hero');
    assert.deepEqual(definition?.fields, [...HERO.fields, { key: 'subtitle', type: 'text' }]);
    const [seen] = await visitorEntries(ctx.app, site, '/');
    assert.equal(seen?.componentId, 'Hero');
    assert.deepEqual(seen?.fields, { count: 3 });
    // The editor's next save of a number still fits the declared type.
    const save = await patchEntry(ctx.app, site, heroId, { fields: { count: 4 }, status: 'published' });
    assert.equal(save.status, 200);
    assert.deepEqual((await visitorEntries(ctx.app, site, '/'))[0]?.fields, { count: 4 });
  });

  it('additive: a refused-only sync writes nothing', async () => {
    const site = await newSite(ctx.app);
    await publishedHero(ctx.app, site);
    const before = await definitionsOf(ctx.app, site, '/');
    const res = await syncAs(ctx.app, site.key, { pageId: '/', components: [{ ...HERO, componentId: 'X' }] });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.rejected.length, 1);
    assert.deepEqual(await definitionsOf(ctx.app, site, '/'), before);
  });

  it('locked: the publishable key gets 403 and changes nothing, even new definitions', async () => {
    const site = await newSite(ctx.app);
    await publishedHero(ctx.app, site);
    assert.equal((await setMode(ctx.app, site, 'locked')).status, 200);
    const res = await syncAs(ctx.app, site.key, {
      pageId: '/',
      components: [HERO, { ...HERO, instanceKey: 'other' }],
    });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'forbidden');
    const dry = await syncAs(ctx.app, site.key, { pageId: '/', components: [HERO] }, '?dryRun=true');
    assert.equal(dry.status, 403);
    assert.deepEqual(
      (await editorEntries(ctx.app, site, '/')).map((e) => e.instanceKey),
      ['hero'],
    );
    // A member may still sync a locked project.
    const member = await syncAs(ctx.app, site.editing, {
      pageId: '/',
      components: [HERO, { ...HERO, instanceKey: 'other' }],
    });
    assert.equal(member.status, 200);
    assert.deepEqual(member.body.data.created, ['other']);
  });

  it('open: the publishable key may change everything', async () => {
    const site = await newSite(ctx.app);
    await publishedHero(ctx.app, site);
    assert.equal((await setMode(ctx.app, site, 'open')).status, 200);
    const res = await syncAs(ctx.app, site.key, BREAKING);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.rejected, []);
    const [definition] = await definitionsOf(ctx.app, site, '/');
    assert.equal(definition?.componentId, 'Defaced');
    assert.deepEqual(definition?.fields, BREAKING.components[0]?.fields);
    assert.equal((await visitorEntries(ctx.app, site, '/'))[0]?.componentId, 'Defaced');
  });

  it("a member's session and a write secret key change everything; a read secret key is 403", async () => {
    const site = await newSite(ctx.app);
    await publishedHero(ctx.app, site);
    // A session alone (its account has one project) and a session beside the key both count.
    const bySession = await syncAs(ctx.app, bearer(site.admin.token), BREAKING);
    assert.equal(bySession.status, 200);
    assert.deepEqual(bySession.body.data.rejected, []);
    assert.equal((await definitionsOf(ctx.app, site, '/'))[0]?.componentId, 'Defaced');

    const write = await secretKey(ctx.app, site, 'write');
    const byKey = await syncAs(
      ctx.app,
      { ...bearer(write), 'x-cms-project-id': site.project.id },
      { pageId: '/', components: [{ ...HERO, componentId: 'Restored' }] },
    );
    assert.equal(byKey.status, 200);
    assert.deepEqual(byKey.body.data.rejected, []);
    const [definition] = await definitionsOf(ctx.app, site, '/');
    assert.equal(definition?.componentId, 'Restored');
    assert.deepEqual(definition?.fields, HERO.fields);
    assert.equal((await visitorEntries(ctx.app, site, '/'))[0]?.componentId, 'Restored');

    const beside = await syncAs(ctx.app, site.editing, {
      pageId: '/',
      components: [{ ...HERO, componentId: 'Again' }],
    });
    assert.equal(beside.status, 200);
    assert.equal((await definitionsOf(ctx.app, site, '/'))[0]?.componentId, 'Again');

    const read = await secretKey(ctx.app, site, 'read');
    const byReadKey = await syncAs(ctx.app, bearer(read), { pageId: '/', components: [HERO] });
    assert.equal(byReadKey.status, 403);
    assert.equal((await definitionsOf(ctx.app, site, '/'))[0]?.componentId, 'Again');
  });

  it("a session of another project is 403 beside this project's key", async () => {
    const site = await newSite(ctx.app);
    const other = await newSite(ctx.app, 'Other');
    const res = await syncAs(
      ctx.app,
      { ...site.key, ...bearer(other.admin.token) },
      { pageId: '/', components: [HERO] },
    );
    assert.equal(res.status, 403);
    assert.deepEqual(await editorEntries(ctx.app, site, '/'), []);
  });

  it('dryRun reports created, changed and rejected and writes nothing', async () => {
    const site = await newSite(ctx.app);
    await publishedHero(ctx.app, site);
    const before = {
      definitions: await definitionsOf(ctx.app, site, '/'),
      entries: await editorEntries(ctx.app, site, '/'),
      visitors: await visitorEntries(ctx.app, site, '/'),
    };
    const payload = {
      pageId: '/',
      components: [...BREAKING.components, { componentId: 'Footer', instanceKey: 'footer', fields: [] }],
    };

    const bySite = await syncAs(ctx.app, site.key, payload, '?dryRun=true');
    assert.equal(bySite.status, 200);
    assert.deepEqual(bySite.body.data, {
      pageId: '/',
      created: ['footer'],
      changed: [
        {
          instanceKey: 'hero',
          from: { componentId: 'Hero', fields: HERO.fields },
          to: { componentId: 'Hero', fields: [...HERO.fields, { key: 'subtitle', type: 'text' }] },
        },
      ],
      rejected: [
        'componentId stays "Hero": the publishable key cannot change it to "Defaced".',
        'field "count" keeps type "number": the publishable key cannot change it to "text".',
        'field "link" is kept: the publishable key cannot remove fields.',
      ].map((reason) => ({ instanceKey: 'hero', reason })),
    });

    const byMember = await syncAs(ctx.app, site.editing, payload, '?dryRun=true');
    assert.equal(byMember.status, 200);
    assert.deepEqual(byMember.body.data.changed, [
      {
        instanceKey: 'hero',
        from: { componentId: 'Hero', fields: HERO.fields },
        to: { componentId: 'Defaced', fields: BREAKING.components[0]?.fields },
      },
    ]);
    assert.deepEqual(byMember.body.data.rejected, []);
    assert.deepEqual(byMember.body.data.created, ['footer']);

    assert.deepEqual(
      {
        definitions: await definitionsOf(ctx.app, site, '/'),
        entries: await editorEntries(ctx.app, site, '/'),
        visitors: await visitorEntries(ctx.app, site, '/'),
      },
      before,
    );
    const plain = await syncAs(ctx.app, site.key, payload, '?dryRun=false');
    assert.deepEqual(plain.body.data.created, ['footer']);
  });
});

/** Both instances' clock for the limit: it starts ten seconds into a minute and moves when a test moves it. */
const TEN_PAST = Date.UTC(2026, 0, 1, 12, 0, 10);
let clock = TEN_PAST;

describeEachDb(
  'definitions sync limit',
  (ctx) => {
    let second: FastifyInstance;
    let secondDb: Awaited<ReturnType<typeof openDatabase>>;
    before(async () => {
      // A second instance on the same database: the limit is one count for both.
      secondDb = await openDatabase(ctx.database.config);
      second = await buildApp({ config: ctx.config, database: secondDb, now: () => clock });
      await second.ready();
    });
    after(async () => {
      await second.close();
      await secondDb.close();
    });

    it('the 4th publishable-key sync in a minute is 429 with Retry-After, on any instance; sessions are not limited', async () => {
      clock = TEN_PAST; // each database's suite starts in the same window
      const site = await newSite(ctx.app);
      const other = await newSite(ctx.app, 'Other');
      const body = { pageId: '/', components: [HERO] };
      assert.equal((await syncAs(ctx.app, site.key, body)).status, 200);
      assert.equal((await syncAs(second, site.key, body)).status, 200);
      assert.equal((await syncAs(ctx.app, site.key, body, '?dryRun=true')).status, 200);
      const over = await syncAs(second, site.key, body);
      assert.equal(over.status, 429);
      assert.equal(over.body.error.code, 'rate_limited');
      assert.equal(over.headers['retry-after'], '50'); // the rest of the minute
      assert.equal((await syncAs(ctx.app, site.key, body)).status, 429);
      // Members are not limited, and the count is per project.
      for (let i = 0; i < 4; i++) assert.equal((await syncAs(ctx.app, site.editing, body)).status, 200);
      assert.equal((await syncAs(ctx.app, other.key, body)).status, 200);
      // The next minute is a new window, on both instances.
      clock = TEN_PAST + 50_000;
      assert.equal((await syncAs(second, site.key, body)).status, 200);
    });
  },
  { env: { CMS_SYNC_LIMIT_PER_MINUTE: '3' }, now: () => clock },
);
