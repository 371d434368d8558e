import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { newSite, pageUrl, type Site, sync } from '../helpers/content.js';
import { bearer, call } from '../helpers/factories.js';
import { describeWithWorker } from '../helpers/hooks.js';
import { localizedSite as localizedSiteOf } from '../helpers/locales.js';
import { createSchedule, inMs, postSchedule, settled } from '../helpers/schedules.js';

const LOCALES = {
  default: 'en',
  available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }],
};
const HERO = {
  componentId: 'Hero',
  instanceKey: 'hero',
  fields: [
    { key: 'title', type: 'text', localized: true, required: true },
    { key: 'color', type: 'text' },
  ],
};

/** Schedules and activity in a project with locales (contract §14, §17). */
describeEachDb(
  'schedules and activity in locales',
  (ctx) => {
    const localizedSite = () => localizedSiteOf(ctx.app, LOCALES, [HERO]);
    const readIn = async (site: Site, locale: string) =>
      (await call(ctx.app, { method: 'GET', url: `${pageUrl('/')}?locale=${locale}`, headers: site.editing }))
        .body.data[0];

    it('a schedule takes a locale or *; a locale the project lacks, or any without locales, is 400', async () => {
      const { site, id } = await localizedSite();
      const fr = await createSchedule(ctx.app, site, {
        action: 'publish',
        entryId: id,
        at: inMs(3_600_000),
        locale: 'FR',
      });
      assert.equal(fr.locale, 'fr');
      const every = await createSchedule(ctx.app, site, {
        action: 'publish',
        pageId: '/',
        at: inMs(3_600_000),
        locale: '*',
      });
      assert.equal(every.locale, '*');
      const plain = await createSchedule(ctx.app, site, {
        action: 'publish',
        entryId: id,
        at: inMs(3_600_000),
      });
      assert.equal(plain.locale, 'en', 'the default, written out');
      const bad = await postSchedule(ctx.app, site, {
        action: 'publish',
        entryId: id,
        at: inMs(3_600_000),
        locale: 'de',
      });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.details[0].path, 'body.locale');

      const other = await newSite(ctx.app);
      await sync(ctx.app, other, '/', [HERO]);
      const entry = (await call(ctx.app, { method: 'GET', url: pageUrl('/'), headers: other.editing })).body
        .data[0];
      const without = await createSchedule(ctx.app, other, {
        action: 'publish',
        entryId: entry.id,
        at: inMs(3_600_000),
      });
      assert.equal('locale' in without, false, 'a project without locales answers as before');
      for (const locale of ['en', '*']) {
        const res = await postSchedule(ctx.app, other, {
          action: 'publish',
          entryId: entry.id,
          at: inMs(3_600_000),
          locale,
        });
        assert.equal(res.status, 400, locale);
      }
    });

    describeWithWorker(ctx, 'with the worker', () => {
      it('runs in its locale only; refused by rules, it keeps the problems with their locale', async () => {
        const { site, id } = await localizedSite();
        const patch = (locale: string, payload: object) =>
          call(ctx.app, {
            method: 'PATCH',
            url: `/v1/content/${id}?locale=${locale}`,
            headers: site.editing,
            payload,
          });
        // Nothing has a title: a `*` publish is refused with every locale's problem.
        const refused = await createSchedule(ctx.app, site, {
          action: 'publish',
          pageId: '/',
          at: inMs(300),
          locale: '*',
        });
        const failed = await settled(ctx.app, site, refused.id);
        assert.equal(failed.status, 'failed');
        assert.deepEqual(
          (failed as unknown as { problems: { locale: string }[] }).problems.map((p) => p.locale),
          ['en', 'fr'],
        );

        await patch('en', { fields: { title: 'Hello' } });
        await patch('fr', { fields: { title: 'Bonjour' } });
        const fr = await createSchedule(ctx.app, site, {
          action: 'publish',
          entryId: id,
          at: inMs(300),
          locale: 'fr',
        });
        assert.equal((await settled(ctx.app, site, fr.id)).status, 'done');
        const after = await readIn(site, 'fr');
        assert.equal(after.locales.fr.status, 'published');
        assert.equal(after.locales.en.publishedAt, null, 'en untouched');

        const activity = await call(ctx.app, {
          method: 'GET',
          url: '/v1/activity?action=entry.published',
          headers: { ...bearer(site.admin.token), 'x-cms-project-id': site.project.id },
        });
        assert.equal(activity.body.data[0].locale, 'fr');
        assert.match(activity.body.data[0].summary, / in fr\.$/);
      });
    });
  },
  { env: { CMS_WORKER_POLL_MS: '20' } },
);
