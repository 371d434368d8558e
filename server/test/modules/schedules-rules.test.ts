import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { editorEntries, newSite, patchEntry, visitorEntries } from '../helpers/content.js';
import { landingEntry } from '../helpers/fields.js';
import { describeWithWorker } from '../helpers/hooks.js';
import { createSchedule, inMs, settled } from '../helpers/schedules.js';

/** A scheduled publish of content that breaks its definition's rules (contract §13, §17). */
describeEachDb('scheduled publish and rules', (ctx) => {
  describeWithWorker(ctx, 'with a worker', () => {
    it('the schedule fails with a sentence in error and every problem; nothing is published', async () => {
      const site = await newSite(ctx.app);
      const entryId = await landingEntry(ctx.app, site);
      await patchEntry(ctx.app, site, entryId, { fields: { headline: 'x'.repeat(61) } });
      const one = await createSchedule(ctx.app, site, { action: 'publish', entryId, at: inMs(500) });
      const page = await createSchedule(ctx.app, site, { action: 'publish', pageId: '/', at: inMs(500) });

      for (const id of [one.id, page.id]) {
        const failed = (await settled(ctx.app, site, id)) as Awaited<ReturnType<typeof settled>> & {
          problems?: unknown[];
        };
        assert.equal(failed.status, 'failed');
        assert.match(failed.error ?? '', /breaks 2 rules of its definition; nothing was published/);
        assert.deepEqual(
          [...(failed.problems ?? [])].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
          [
            { entryId, locale: null, path: 'fields.headline', message: 'must be at most 60 characters' },
            { entryId, locale: null, path: 'fields.tags', message: 'must have at least 1' },
          ],
        );
      }
      assert.deepEqual(await visitorEntries(ctx.app, site, '/'), []);
      assert.equal((await editorEntries(ctx.app, site, '/'))[0]?.status, 'draft');

      // A schedule that fails for another reason has no problems.
      await patchEntry(ctx.app, site, entryId, { fields: { headline: 'Hi', tags: ['new'] } });
      const ok = await createSchedule(ctx.app, site, { action: 'publish', entryId, at: inMs(500) });
      const done = (await settled(ctx.app, site, ok.id)) as { status: string; problems?: unknown };
      assert.equal(done.status, 'done');
      assert.equal('problems' in done, false);
    });
  });
});
