import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { editorEntries, newSite } from '../helpers/content.js';
import { definitionsOf, LANDING, setMode, syncAs } from '../helpers/fields.js';

/** Field declarations of every type and option (contract §13, §17), checked at sync. */

const page = (fields: unknown[], instanceKey = 'landing') => ({
  pageId: '/',
  components: [{ componentId: 'Landing', instanceKey, fields }],
});

/** A container `levels` deep: object in object in … with a text at the bottom. */
const nested = (levels: number): Record<string, unknown> =>
  levels === 0
    ? { key: 'leaf', type: 'text' }
    : { key: `o${levels}`, type: 'object', fields: [nested(levels - 1)] };

describeEachDb('field declarations', (ctx) => {
  it('every type and option is stored and returned by GET /v1/definitions as sent', async () => {
    const site = await newSite(ctx.app);
    const res = await syncAs(ctx.app, site.editing, { pageId: '/', components: [LANDING] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const [stored] = await definitionsOf(ctx.app, site, '/');
    assert.deepEqual(stored?.fields, LANDING.fields);
    // An identical resend writes nothing; a changed nested field is a change.
    const again = await syncAs(ctx.app, site.editing, { pageId: '/', components: [LANDING] }, '?dryRun=true');
    assert.deepEqual(again.body.data.changed, []);
    const changedFields = structuredClone(LANDING.fields);
    (changedFields[3] as { fields: { required?: boolean }[] }).fields[0]!.required = false;
    const dry = await syncAs(ctx.app, site.editing, page(changedFields), '?dryRun=true');
    assert.equal(dry.body.data.changed.length, 1);
    assert.deepEqual(dry.body.data.changed[0].to.fields[3].fields[0], {
      key: 'title',
      type: 'text',
      required: false,
    });
  });

  it('bad declarations are a 400 naming each path, and nothing is written', async () => {
    const site = await newSite(ctx.app);
    const cases: [unknown[], string, RegExp][] = [
      [
        [{ key: 'v', type: 'video' }],
        'body.components[0].fields[0].type',
        /not a field type; use one of: text, richtext/,
      ],
      [
        [
          { key: 'a', type: 'text' },
          { key: 'b', type: 'text' },
          { key: 'c', type: 'object', fields: [{ key: 's', type: 'select', options: [] }] },
        ],
        'body.components[0].fields[2].fields[0].options',
        /1 to 200/,
      ],
      [
        [{ key: 't', type: 'text', minimum: 3 }],
        'body.components[0].fields[0].minimum',
        /not an option of a "text" field/,
      ],
      [
        [{ key: 'n', type: 'number', maxLength: 3 }],
        'body.components[0].fields[0].maxLength',
        /not an option of a "number"/,
      ],
      [[{ key: 's', type: 'select' }], 'body.components[0].fields[0].options', /is required/],
      [[{ key: 'l', type: 'list' }], 'body.components[0].fields[0].fields', /is required/],
      [
        [{ key: 'n', type: 'number', min: 5, max: 1 }],
        'body.components[0].fields[0].min',
        /not be more than max/,
      ],
      [
        [{ key: 'o', type: 'object', fields: [{ key: 'x', type: 'text', localized: true }] }],
        'body.components[0].fields[0].fields[0].localized',
        /top-level/,
      ],
      [
        [{ key: 'o', type: 'object', fields: [{ key: '_key', type: 'text' }] }],
        'body.components[0].fields[0].fields[0].key',
        /A-Za-z/,
      ],
      [
        [
          {
            key: 'o',
            type: 'list',
            fields: [
              { key: 'a', type: 'text' },
              { key: 'a', type: 'url' },
            ],
          },
        ],
        'body.components[0].fields[0].fields[1].key',
        /twice/,
      ],
      [
        [nested(6)],
        'body.components[0].fields[0].fields[0].fields[0].fields[0].fields[0].fields[0]',
        /nest at most 5 deep/,
      ],
      [
        [
          {
            key: 's',
            type: 'select',
            options: Array.from({ length: 10_000 }, (_, i) => ({ value: `v${i}` })),
          },
        ],
        'body.components[0].fields',
        /at most 65536 bytes/,
      ],
      [
        [{ key: 's', type: 'select', options: Array.from({ length: 201 }, (_, i) => ({ value: `v${i}` })) }],
        'body.components[0].fields[0].options',
        /1 to 200/,
      ],
      [
        [{ key: 'p', type: 'text', pattern: { source: 'a'.repeat(201) } }],
        'body.components[0].fields[0].pattern',
        /1 to 200 characters/,
      ],
      [
        [{ key: 'p', type: 'text', pattern: { source: '(a)\\1' } }],
        'body.components[0].fields[0].pattern',
        /linear-time engine/,
      ],
      [
        [{ key: 'r', type: 'reference', default: 'ent_01JD3ZK4Q7M2X8V5B6N9C0R1T2' }],
        'body.components[0].fields[0].default',
        /takes no default/,
      ],
      [
        [{ key: 'k', type: 'link', default: { pageId: '/' } }],
        'body.components[0].fields[0].default',
        /takes no default/,
      ],
      [
        [{ key: 't', type: 'text', maxLength: 3, default: 'too long' }],
        'body.components[0].fields[0].default',
        /at most 3 characters/,
      ],
      [[{ key: 'c', type: 'color', default: 'red' }], 'body.components[0].fields[0].default', /#rgb/],
      [[{ key: 't', type: 'text', label: 'x'.repeat(101) }], 'body.components[0].fields[0].label', /100/],
      [
        [
          {
            key: 'b',
            type: 'blocks',
            blocks: [
              { componentId: 'A', fields: [] },
              { componentId: 'A', fields: [] },
            ],
          },
        ],
        'body.components[0].fields[0].blocks',
        /repeats/,
      ],
    ];
    for (const [fields, path, message] of cases) {
      const res = await syncAs(ctx.app, site.editing, page(fields));
      assert.equal(res.status, 400, `${path}: ${JSON.stringify(res.body).slice(0, 300)}`);
      assert.equal(res.body.error.code, 'validation_failed');
      const problem = res.body.error.details.find((d: { path: string }) => d.path === path);
      assert.ok(problem, `${path} not in ${JSON.stringify(res.body.error.details).slice(0, 400)}`);
      assert.match(problem.message, message);
    }
    // An unknown type answers one sentence, not one line per type.
    const video = await syncAs(ctx.app, site.editing, page([{ key: 'v', type: 'video' }]));
    assert.equal(video.body.error.details.length, 1);
    // 501 declarations (a list holding 500): over the bound though each level is small.
    const many = [
      {
        key: 'l',
        type: 'list',
        fields: Array.from({ length: 500 }, (_, i) => ({ key: `f${i}`, type: 'boolean' })),
      },
    ];
    const tooMany = await syncAs(ctx.app, site.editing, page(many));
    assert.equal(tooMany.status, 400);
    assert.match(tooMany.body.error.details[0].message, /at most 500 declarations/);
    // 501 top-level fields: the route's bound, a 400 in the envelope too.
    const wide = Array.from({ length: 501 }, (_, i) => ({ key: `f${i}`, type: 'boolean' }));
    const tooWide = await syncAs(ctx.app, site.editing, page(wide));
    assert.equal(tooWide.status, 400);
    assert.equal(tooWide.body.error.code, 'validation_failed');
    // Five deep is allowed.
    assert.equal((await syncAs(ctx.app, site.editing, page([nested(5)]))).status, 200);
    const entries = await editorEntries(ctx.app, site, '/');
    assert.deepEqual(
      entries.map((e) => e.instanceKey),
      ['landing'],
    );
    assert.deepEqual(Object.keys((await definitionsOf(ctx.app, site, '/'))[0]!.fields[0]!).sort(), [
      'fields',
      'key',
      'type',
    ]);
  });

  it('defaults go into the working copy of new stubs, list items with their _key', async () => {
    const site = await newSite(ctx.app);
    const fields = [
      { key: 'variant', type: 'select', options: [{ value: 'a' }, { value: 'b' }], default: 'b' },
      { key: 'items', type: 'list', fields: [{ key: 't', type: 'text' }], default: [{ t: 'one' }] },
      { key: 'plain', type: 'text' },
    ];
    assert.equal((await syncAs(ctx.app, site.editing, page(fields))).status, 200);
    const [entry] = await editorEntries(ctx.app, site, '/');
    const items = entry?.fields.items as { _key: string; t: string }[];
    assert.equal(entry?.fields.variant, 'b');
    assert.equal(items[0]?.t, 'one');
    assert.match(items[0]!._key, /^[A-Za-z0-9]{12}$/);
    assert.equal('plain' in (entry?.fields ?? {}), false);
    // The stored default carries the same _key, so every later stub gets the same items.
    const [stored] = await definitionsOf(ctx.app, site, '/');
    assert.deepEqual(stored?.fields[1]?.default, items);
  });

  it("the publishable key's defaults are ignored unless definitionSync is open", async () => {
    const site = await newSite(ctx.app);
    const fields = [{ key: 'title', type: 'text', default: 'Buy now', required: true }];
    const res = await syncAs(ctx.app, site.key, page(fields));
    assert.equal(res.status, 200);
    assert.equal(res.body.data.rejected.length, 1);
    assert.match(res.body.data.rejected[0].reason, /without default/);
    const [entry] = await editorEntries(ctx.app, site, '/');
    assert.deepEqual(entry?.fields, {});
    // A new definition keeps its rules.
    assert.deepEqual((await definitionsOf(ctx.app, site, '/'))[0]?.fields, [
      { key: 'title', type: 'text', required: true },
    ]);

    assert.equal((await setMode(ctx.app, site, 'open')).status, 200);
    const open = await syncAs(ctx.app, site.key, page(fields, 'other'));
    assert.deepEqual(open.body.data.rejected, []);
    const other = (await editorEntries(ctx.app, site, '/')).find((e) => e.instanceKey === 'other');
    assert.deepEqual(other?.fields, { title: 'Buy now' });
  });

  it('additive: a field the publishable key adds is stored without rules; a changed nested field is refused', async () => {
    const site = await newSite(ctx.app);
    const start = [{ key: 'items', type: 'list', fields: [{ key: 't', type: 'text' }] }];
    assert.equal((await syncAs(ctx.app, site.editing, page(start))).status, 200);
    const sent = [
      { key: 'items', type: 'list', fields: [{ key: 't', type: 'text', required: true }] },
      { key: 'headline', type: 'text', required: true, maxLength: 60, label: 'Headline' },
    ];
    const dry = await syncAs(ctx.app, site.key, page(sent), '?dryRun=true');
    assert.deepEqual(
      dry.body.data.rejected.map((r: { reason: string }) => r.reason),
      [
        'field "items" keeps its declaration: the publishable key cannot change its options, rules or nested fields.',
        'field "headline" is stored without required, maxLength: the publishable key cannot set them here; set them with a member\'s session or a write-key sync.',
      ],
    );
    assert.deepEqual(dry.body.data.changed[0].to.fields, [
      ...start,
      { key: 'headline', type: 'text', label: 'Headline' },
    ]);
    const res = await syncAs(ctx.app, site.key, page(sent));
    assert.equal(res.body.data.rejected.length, 2);
    assert.deepEqual((await definitionsOf(ctx.app, site, '/'))[0]?.fields, [
      ...start,
      { key: 'headline', type: 'text', label: 'Headline' },
    ]);
    // A member may change the nested declaration.
    assert.equal((await syncAs(ctx.app, site.editing, page(sent))).status, 200);
    assert.deepEqual((await definitionsOf(ctx.app, site, '/'))[0]?.fields, sent);
  });

  it('locked mode refuses nested declarations from the publishable key too', async () => {
    const site = await newSite(ctx.app);
    assert.equal((await setMode(ctx.app, site, 'locked')).status, 200);
    const res = await syncAs(ctx.app, site.key, page([nested(2)]));
    assert.equal(res.status, 403);
  });
});
