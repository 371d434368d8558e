import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { describeEachDb, secondInstance } from '../helpers/app.js';
import { newSite } from '../helpers/content.js';
import { caughtUp, eventually } from '../helpers/instances.js';
import { entriesOn, put, read, TESTIMONIAL } from '../helpers/references.js';

/**
 * The dependents of a published entry (src/modules/content/published-pages.ts): dropped at once on
 * every instance, then rebuilt together in the background, so their readers find them in memory
 * again; and never a stale copy meanwhile, however many read at once (contract §17, Coherence).
 */

const PAGES = 12;
const CARD = { componentId: 'Card', instanceKey: 'card', fields: [{ key: 'ref', type: 'reference' }] };

const quoteOn = async (app: FastifyInstance, key: Record<string, string>, i: number) => {
  const res = await read(app, key, `/p/${i}`);
  assert.equal(res.status, 200);
  return res.body.data[0]?.fields.ref?.fields?.quote as string | undefined;
};
const quotes = (app: FastifyInstance, key: Record<string, string>) =>
  Promise.all(Array.from({ length: PAGES }, (_, i) => quoteOn(app, key, i)));

describeEachDb('references: the dependents of a publish', (ctx) => {
  const other = secondInstance(ctx);

  it('are read new at once by concurrent readers, then rebuilt in memory without being read', async () => {
    const b = other();
    const site = await newSite(ctx.app);
    const { quote } = await entriesOn(ctx.app, site, '@site', [{ ...TESTIMONIAL, instanceKey: 'quote' }]);
    await put(ctx.app, site, quote as string, { quote: 'v0' });
    const cards: string[] = [];
    for (let i = 0; i < PAGES; i++) {
      const { card } = await entriesOn(ctx.app, site, `/p/${i}`, [CARD]);
      await put(ctx.app, site, card as string, { ref: quote });
      cards.push(card as string);
    }
    await caughtUp(ctx.app, b, ctx.db);
    assert.deepEqual(await quotes(ctx.app, site.key), Array(PAGES).fill('v0')); // cached on A
    assert.deepEqual(await quotes(b, site.key), Array(PAGES).fill('v0')); // and on B

    for (const text of ['v1', 'v2', 'v3']) {
      await put(ctx.app, site, quote as string, { quote: text });
      // Every page at once, while its rebuild may be under way: none stale on the instance that published.
      assert.deepEqual(await quotes(ctx.app, site.key), Array(PAGES).fill(text));
      assert.deepEqual(
        await eventually(
          () => quotes(b, site.key),
          (q) => q.every((t) => t === text),
        ),
        Array(PAGES).fill(text),
      );
    }

    // Rebuilt without a read: a write behind every instance's back (no notification) to the cards
    // after the rebuild stays invisible, so the pages were in memory again before anyone read them.
    await put(ctx.app, site, quote as string, { quote: 'v4' });
    await caughtUp(ctx.app, b, ctx.db);
    await new Promise((r) => setTimeout(r, 200)); // the rebuild: a few queries for all the pages
    await sql`update content_entries set published_fields = '{"ref":null}' where id in (${sql.join(cards)})`.execute(
      ctx.db,
    );
    assert.deepEqual(await quotes(ctx.app, site.key), Array(PAGES).fill('v4'));
    assert.deepEqual(await quotes(b, site.key), Array(PAGES).fill('v4'));
  });
});
