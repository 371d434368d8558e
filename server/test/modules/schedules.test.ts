import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { claimDueSchedule, finishSchedule } from '../../src/modules/schedules/schedules.repository.js';
import { describeEachDb, type TestContext } from '../helpers/app.js';
import {
  editorEntries,
  HERO,
  heroEntry,
  newSite,
  patchEntry,
  type Site,
  sync,
  visitorEntries,
} from '../helpers/content.js';
import { bearer, call, newMember } from '../helpers/factories.js';
import { createWebhook, describeWithWorker, startReceiver, waitFor } from '../helpers/hooks.js';
import {
  createSchedule,
  historyOf,
  inMs,
  listSchedules,
  postSchedule,
  type ScheduleBody,
  scheduleById,
  settled,
} from '../helpers/schedules.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The project's activity log through the API (admin), newest first. */
async function activity(ctx: TestContext, site: Site, query = '') {
  const res = await call(ctx.app, {
    method: 'GET',
    url: `/v1/activity?limit=200${query}`,
    headers: { ...bearer(site.admin.token), 'x-cms-project-id': site.project.id },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data as {
    action: string;
    actor: Record<string, unknown>;
    target: { type: string; id: string };
    summary: string;
  }[];
}

/** Contract §9: POST/GET/DELETE /v1/schedules, and the worker running them. */
describeEachDb(
  'scheduled publishing',
  (ctx) => {
    describe('creating, listing and canceling', () => {
      it('creates a pending schedule with the contract shape and records it in the activity log', async () => {
        const site = await newSite(ctx.app);
        const entryId = await heroEntry(ctx.app, site);
        // Sent with an offset: stored and answered in UTC with milliseconds.
        const when = new Date(Date.now() + 2 * DAY);
        when.setUTCMilliseconds(0);
        const offset = `${new Date(when.getTime() + 2 * HOUR).toISOString().slice(0, 19)}+02:00`;
        const res = await postSchedule(ctx.app, site, { action: 'publish', entryId, at: offset });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        const s = res.body.data as ScheduleBody;
        const expectedAt = when.toISOString();
        assert.match(s.id, /^sch_[0-9A-Z]{26}$/);
        assert.deepEqual(s, {
          id: s.id,
          action: 'publish',
          entryId,
          pageId: null,
          at: expectedAt,
          status: 'pending',
          createdBy: { id: site.editor.id, email: site.editor.email },
          createdAt: s.createdAt,
          executedAt: null,
          error: null,
        });
        assert.match(s.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

        const page = await createSchedule(ctx.app, site, {
          action: 'publish',
          pageId: '/',
          entryId: null,
          at: inMs(DAY),
        });
        assert.equal(page.entryId, null);
        assert.equal(page.pageId, '/');

        const log = await activity(ctx, site, '&action=schedule.created');
        assert.equal(log.length, 2);
        assert.deepEqual(log[1]?.actor, { type: 'user', id: site.editor.id, email: site.editor.email });
        assert.deepEqual(log[1]?.target, { type: 'schedule', id: s.id });
        assert.match(log[1]?.summary ?? '', /scheduled publishing hero \(Hero\) on \/ for /);
        assert.match(log[0]?.summary ?? '', /the drafts of page \//);
      });

      it('refuses bad input with a clear 400 or 404, writing nothing', async () => {
        const site = await newSite(ctx.app);
        const entryId = await heroEntry(ctx.app, site);
        const other = await newSite(ctx.app, 'Other site');
        const otherEntry = await heroEntry(ctx.app, other);
        const future = inMs(DAY);
        const cases: [unknown, number, string | null][] = [
          [{ action: 'publish', entryId, at: inMs(-60_000) }, 400, 'body.at'],
          [{ action: 'publish', entryId, at: new Date().toISOString() }, 400, 'body.at'],
          [{ action: 'publish', entryId, at: inMs(367 * DAY) }, 400, 'body.at'],
          [{ action: 'publish', entryId, pageId: '/', at: future }, 400, 'body'],
          [{ action: 'publish', at: future }, 400, 'body'],
          [{ action: 'publish', entryId: null, pageId: null, at: future }, 400, 'body'],
          [{ action: 'unpublish', pageId: '/', at: future }, 400, 'body.pageId'],
          [{ action: 'publish', entryId, at: 'tomorrow' }, 400, null],
          [{ action: 'publish', entryId, at: '2030-01-01T09:00:00' }, 400, null], // no offset
          [{ action: 'publish', entryId, at: 1767225600000 }, 400, null],
          [{ action: 'archive', entryId, at: future }, 400, null],
          [{ action: 'publish', entryId, at: future, extra: 1 }, 400, null],
          [{ action: 'publish', entryId: 'ent_01JD3ZM0000000000000000000', at: future }, 404, null],
          [{ action: 'publish', entryId: otherEntry, at: future }, 404, null],
          [{ action: 'publish', pageId: '/nowhere', at: future }, 404, null],
        ];
        for (const [payload, status, path] of cases) {
          const res = await postSchedule(ctx.app, site, payload);
          assert.equal(res.status, status, `${JSON.stringify(payload)} -> ${JSON.stringify(res.body)}`);
          assert.equal(res.body.data, null);
          assert.equal(res.body.error.code, status === 400 ? 'validation_failed' : 'not_found');
          if (path)
            assert.ok(
              res.body.error.details.some((d: { path: string }) => d.path === path),
              JSON.stringify(res.body),
            );
        }
        const past = await postSchedule(ctx.app, site, { action: 'publish', entryId, at: inMs(-60_000) });
        assert.match(past.body.error.message, /future/);
        assert.match(past.body.error.details[0].message, /must be in the future/);
        const far = await postSchedule(ctx.app, site, { action: 'publish', entryId, at: inMs(367 * DAY) });
        assert.match(far.body.error.details[0].message, /within one year/);

        assert.deepEqual(await listSchedules(ctx.app, site), []);
        assert.deepEqual(await activity(ctx, site, '&action=schedule.created'), []);
      });

      it('needs an editor session with the site key; any member lists; another project sees none', async () => {
        const site = await newSite(ctx.app);
        const entryId = await heroEntry(ctx.app, site);
        const payload = { action: 'publish', entryId, at: inMs(DAY) };
        // Without x-cms-key (the project named another way): the key is required.
        const noKey = await postSchedule(ctx.app, site, payload, {
          ...bearer(site.editor.token),
          'x-cms-project-id': site.project.id,
        } as never);
        assert.equal(noKey.status, 401);
        const s = await createSchedule(ctx.app, site, payload);

        const other = await newSite(ctx.app, 'Other site');
        assert.deepEqual(await listSchedules(ctx.app, other), []);
        const foreign = await call(ctx.app, {
          method: 'DELETE',
          url: `/v1/schedules/${s.id}`,
          headers: other.editing,
        });
        assert.equal(foreign.status, 404);
        assert.equal(foreign.body.error.code, 'not_found');
        assert.equal((await scheduleById(ctx.app, site, s.id)).status, 'pending');
        const unknown = await call(ctx.app, {
          method: 'DELETE',
          url: '/v1/schedules/sch_01JD3ZM0000000000000000000',
          headers: site.editing,
        });
        assert.equal(unknown.status, 404);
      });

      it('lists pending schedules soonest first, then the others newest first, across pages', async () => {
        const site = await newSite(ctx.app);
        const entryId = await heroEntry(ctx.app, site);
        const create = (hours: number) =>
          createSchedule(ctx.app, site, { action: 'publish', entryId, at: inMs(hours * HOUR) });
        const a = await create(30);
        const b = await create(10);
        const c = await create(20);
        const d = await create(40);
        const e = await create(50);
        for (const s of [a, d]) {
          const res = await call(ctx.app, {
            method: 'DELETE',
            url: `/v1/schedules/${s.id}`,
            headers: site.editing,
          });
          assert.equal(res.status, 200);
        }
        const order = [b, c, e, d, a].map((s) => s.id);
        for (const limit of [1, 2, 3, 200]) {
          assert.deepEqual(
            (await listSchedules(ctx.app, site, '', limit)).map((s) => s.id),
            order,
            `limit ${limit}`,
          );
        }
        assert.deepEqual(
          (await listSchedules(ctx.app, site, 'status=pending', 2)).map((s) => s.id),
          [b.id, c.id, e.id],
        );
        assert.deepEqual(
          (await listSchedules(ctx.app, site, 'status=canceled', 1)).map((s) => s.id),
          [d.id, a.id],
        );
        assert.deepEqual(await listSchedules(ctx.app, site, 'status=done'), []);

        const first = await call(ctx.app, {
          method: 'GET',
          url: '/v1/schedules?limit=1',
          headers: site.editing,
        });
        assert.ok(first.body.meta.nextCursor);
        const wrongList = await call(ctx.app, {
          method: 'GET',
          url: `/v1/schedules?status=done&cursor=${first.body.meta.nextCursor}`,
          headers: site.editing,
        });
        assert.equal(wrongList.status, 400);
        for (const bad of ['status=later', 'cursor=bm9wZQ', 'limit=0']) {
          const res = await call(ctx.app, {
            method: 'GET',
            url: `/v1/schedules?${bad}`,
            headers: site.editing,
          });
          assert.equal(res.status, 400, bad);
        }
      });

      it('cancels a pending schedule once: then 409, with an activity record', async () => {
        const site = await newSite(ctx.app);
        const entryId = await heroEntry(ctx.app, site);
        const s = await createSchedule(ctx.app, site, { action: 'unpublish', entryId, at: inMs(DAY) });
        const res = await call(ctx.app, {
          method: 'DELETE',
          url: `/v1/schedules/${s.id}`,
          headers: bearer(site.admin.token),
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.deepEqual(res.body, { data: { id: s.id, deleted: true }, error: null });
        const listed = await scheduleById(ctx.app, site, s.id);
        assert.equal(listed.status, 'canceled');
        assert.equal(listed.executedAt, null);

        const again = await call(ctx.app, {
          method: 'DELETE',
          url: `/v1/schedules/${s.id}`,
          headers: site.editing,
        });
        assert.equal(again.status, 409);
        assert.equal(again.body.error.code, 'conflict');
        assert.deepEqual(again.body.error.details, { status: 'canceled' });

        const log = await activity(ctx, site, `&targetId=${s.id}`);
        assert.deepEqual(
          log.map((r) => r.action),
          ['schedule.canceled', 'schedule.created'],
        );
        assert.deepEqual(log[0]?.actor, { type: 'user', id: site.admin.id, email: site.admin.email });
        assert.match(log[0]?.summary ?? '', /canceled unpublishing hero \(Hero\) on \//);
      });
    });

    it('while a schedule is being run, a later one of the same page waits; other pages do not', async (t) => {
      if (ctx.kind !== 'postgres') return t.skip('SQLite runs one write transaction at a time');
      const site = await newSite(ctx.app);
      const first = await heroEntry(ctx.app, site, '/a');
      const second = await heroEntry(ctx.app, site, '/b');
      // Due a minute from now: before every other test's schedules (the claim looks at all projects);
      // the claims below pass a cut-off instead of waiting, and the schedules are canceled after.
      const base = Date.now() + 60_000;
      const at = (ms: number) => new Date(base + ms).toISOString();
      const publish = await createSchedule(ctx.app, site, { action: 'publish', entryId: first, at: at(0) });
      const unpublish = await createSchedule(ctx.app, site, {
        action: 'unpublish',
        entryId: first,
        at: at(1),
      });
      const page = await createSchedule(ctx.app, site, { action: 'publish', pageId: '/a', at: at(2) });
      const other = await createSchedule(ctx.app, site, { action: 'publish', entryId: second, at: at(3) });
      const cutoff = at(10);
      // A worker's transaction holds the first schedule (claimed, not committed) ...
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let claimed: string | undefined;
      const running = ctx.db
        .transaction()
        .execute(async (trx) => {
          claimed = (await claimDueSchedule(trx, cutoff, []))?.id;
          await held;
          throw new Error('roll back');
        })
        .catch(() => {});
      try {
        await waitFor(() => claimed !== undefined, 10_000, 'the first claim');
        assert.equal(claimed, publish.id);
        // ... so another worker skips it, and must not take the unpublish or the page of the same page.
        const next = await ctx.db.transaction().execute((trx) => claimDueSchedule(trx, cutoff, []));
        assert.equal(next?.id, other.id);
      } finally {
        release();
        await running;
      }
      for (const s of [publish, unpublish, page, other]) {
        await call(ctx.app, { method: 'DELETE', url: `/v1/schedules/${s.id}`, headers: site.editing });
      }
    });

    it('a cancel that arrives while the schedule runs waits for the run, then is a 409', async (t) => {
      if (ctx.kind !== 'postgres') return t.skip('SQLite runs one write transaction at a time');
      const site = await newSite(ctx.app);
      const entryId = await heroEntry(ctx.app, site, '/race');
      const s = await createSchedule(ctx.app, site, { action: 'publish', entryId, at: inMs(60_000) });
      const cutoff = new Date(Date.parse(s.at) + 1).toISOString();
      // A worker's transaction: claimed, and marked done, not yet committed.
      let commit = () => {};
      const committed = new Promise<void>((resolve) => {
        commit = resolve;
      });
      let claimed: string | undefined;
      const run = ctx.db.transaction().execute(async (trx) => {
        claimed = (await claimDueSchedule(trx, cutoff, []))?.id;
        if (claimed) await finishSchedule(trx, claimed, { status: 'done', executedAt: cutoff, error: null });
        await committed;
      });
      try {
        await waitFor(() => claimed !== undefined, 10_000, 'the claim');
        assert.equal(claimed, s.id);
        const cancel = call(ctx.app, {
          method: 'DELETE',
          url: `/v1/schedules/${s.id}`,
          headers: site.editing,
        });
        const waiting = async () =>
          Number(
            (
              await sql<{ n: number }>`select count(*) as n from pg_stat_activity
                where datname = current_database() and wait_event_type = 'Lock'`.execute(ctx.db)
            ).rows[0]?.n,
          ) > 0;
        await waitFor(waiting, 10_000, 'the cancel to wait for the row');
        commit();
        await run;
        const res = await cancel;
        assert.equal(res.status, 409);
        assert.deepEqual(res.body.error.details, { status: 'done' });
        assert.equal((await scheduleById(ctx.app, site, s.id)).status, 'done');
      } finally {
        commit();
        await run.catch(() => {});
      }
      assert.deepEqual(await activity(ctx, site, '&action=schedule.canceled'), []);
    });

    it('a canceled schedule is not claimed', async () => {
      const site = await newSite(ctx.app);
      const entryId = await heroEntry(ctx.app, site, '/gone');
      const s = await createSchedule(ctx.app, site, { action: 'publish', entryId, at: inMs(60_000) });
      const res = await call(ctx.app, {
        method: 'DELETE',
        url: `/v1/schedules/${s.id}`,
        headers: site.editing,
      });
      assert.equal(res.status, 200);
      const cutoff = new Date(Date.parse(s.at) + 1).toISOString();
      const others = (
        await ctx.db.selectFrom('schedules').select('id').where('id', '!=', s.id).execute()
      ).map((r) => r.id);
      const claimed = await ctx.db.transaction().execute((trx) => claimDueSchedule(trx, cutoff, others));
      assert.equal(claimed, undefined);
    });

    describeWithWorker(ctx, 'the worker runs them', () => {
      it('publishes the working copy at that moment, never early, with history, event, activity and caches', async () => {
        const site = await newSite(ctx.app);
        const receiver = await startReceiver();
        try {
          await createWebhook(ctx.app, site.admin.token, `${receiver.url}/hook`, ['content.published']);
          const entryId = await heroEntry(ctx.app, site);
          await patchEntry(ctx.app, site, entryId, { fields: { title: 'live' }, status: 'published' });
          assert.equal((await visitorEntries(ctx.app, site, '/'))[0]?.fields.title, 'live'); // now cached
          await patchEntry(ctx.app, site, entryId, { fields: { title: 'scheduled' } });
          const s = await createSchedule(ctx.app, site, { action: 'publish', entryId, at: inMs(1_500) });
          // Edited after scheduling: the run publishes the working copy as it is then.
          await patchEntry(ctx.app, site, entryId, { fields: { title: 'edited later' } });
          const early = await scheduleById(ctx.app, site, s.id);
          if (Date.now() < Date.parse(s.at)) {
            assert.equal(early.status, 'pending');
            assert.equal((await visitorEntries(ctx.app, site, '/'))[0]?.fields.title, 'live');
          }

          const done = await settled(ctx.app, site, s.id);
          assert.equal(done.status, 'done');
          assert.equal(done.error, null);
          assert.ok(
            done.executedAt && done.executedAt >= done.at,
            `ran at ${done.executedAt}, due ${done.at}`,
          );

          // The visitor's cached page was dropped: the published copy is the later edit.
          assert.equal((await visitorEntries(ctx.app, site, '/'))[0]?.fields.title, 'edited later');
          const entry = (await editorEntries(ctx.app, site, '/'))[0];
          assert.equal(entry?.status, 'published');

          const history = await historyOf(ctx.app, site, entryId);
          assert.equal(history.length, 2);
          assert.equal(history[0]?.action, 'publish');
          assert.deepEqual(history[0]?.fields, { title: 'edited later' });
          assert.deepEqual(history[0]?.actor, { id: site.editor.id, email: site.editor.email });
          assert.ok((history[0]?.at ?? '') >= done.at, 'history is never before `at`');

          await waitFor(() => receiver.received.length >= 2, 15_000, 'the scheduled publish event');
          const event = JSON.parse(receiver.received[1]!.body);
          assert.equal(event.type, 'content.published');
          assert.deepEqual(event.data.actor, { id: site.editor.id, email: site.editor.email });
          assert.deepEqual(event.data.entries[0].fields, { title: 'edited later' });

          // Activity: the system actor on the member's behalf, found by the member's id (§8).
          const mine = await activity(ctx, site, `&actorId=${site.editor.id}`);
          const published = mine.find((r) => r.action === 'entry.published');
          assert.deepEqual(published?.actor, {
            type: 'system',
            onBehalfOf: { id: site.editor.id, email: site.editor.email },
          });
          assert.deepEqual(published?.target, { type: 'entry', id: entryId });
          assert.match(
            published?.summary ?? '',
            new RegExp(`^Scheduled work for ${site.editor.email} published`),
          );
          assert.ok(mine.some((r) => r.action === 'schedule.created'));

          // It ran once: a cancel now is a 409 that says so.
          const cancel = await call(ctx.app, {
            method: 'DELETE',
            url: `/v1/schedules/${s.id}`,
            headers: site.editing,
          });
          assert.equal(cancel.status, 409);
          assert.deepEqual(cancel.body.error.details, { status: 'done' });
          assert.equal((await historyOf(ctx.app, site, entryId)).length, 2);
        } finally {
          await receiver.close();
        }
      });

      it('a page schedule publishes every draft of the page at that time, in one event', async () => {
        const site = await newSite(ctx.app);
        const components = [
          HERO,
          { componentId: 'Text', instanceKey: 'intro', fields: [{ key: 'body', type: 'text' }] },
        ];
        await sync(ctx.app, site, '/launch', components);
        await sync(ctx.app, site, '/other', components);
        const [hero, intro] = await editorEntries(ctx.app, site, '/launch');
        await patchEntry(ctx.app, site, hero!.id, { fields: { title: 'Launch' } });
        const otherHero = (await editorEntries(ctx.app, site, '/other'))[0]!;
        await patchEntry(ctx.app, site, otherHero.id, { fields: { title: 'not this page' } });
        const s = await createSchedule(ctx.app, site, {
          action: 'publish',
          pageId: '/launch',
          at: inMs(800),
        });
        await patchEntry(ctx.app, site, intro!.id, { fields: { body: 'drafted after scheduling' } });

        assert.equal((await settled(ctx.app, site, s.id)).status, 'done');
        const visible = await visitorEntries(ctx.app, site, '/launch');
        assert.deepEqual(
          visible.map((e) => e.fields),
          [{ title: 'Launch' }, { body: 'drafted after scheduling' }],
        );
        assert.deepEqual(await visitorEntries(ctx.app, site, '/other'), []);
        const events = await ctx.db
          .selectFrom('events')
          .select(['type', 'data'])
          .where('projectId', '=', site.project.id)
          .execute();
        assert.equal(events.length, 1);
        assert.equal(JSON.parse(events[0]!.data).entries.length, 2);
        const log = await activity(ctx, site, '&action=page.published');
        assert.equal(log[0]?.actor.type, 'system');
      });

      it('unpublishes an entry at that time', async () => {
        const site = await newSite(ctx.app);
        const entryId = await heroEntry(ctx.app, site);
        await patchEntry(ctx.app, site, entryId, { fields: { title: 'limited offer' }, status: 'published' });
        const s = await createSchedule(ctx.app, site, { action: 'unpublish', entryId, at: inMs(800) });
        assert.equal((await settled(ctx.app, site, s.id)).status, 'done');
        assert.deepEqual(await visitorEntries(ctx.app, site, '/'), []);
        const history = await historyOf(ctx.app, site, entryId);
        assert.equal(history[0]?.action, 'unpublish');
        const log = await activity(ctx, site, '&action=entry.unpublished');
        assert.deepEqual(log[0]?.actor, {
          type: 'system',
          onBehalfOf: { id: site.editor.id, email: site.editor.email },
        });
      });

      it('a schedule whose creator lost the role fails, and nothing changes', async () => {
        const site = await newSite(ctx.app);
        const entryId = await heroEntry(ctx.app, site);
        const leaving = await newMember(ctx.app, site.admin.token, site.project.id, 'editor');
        await patchEntry(ctx.app, site, entryId, { fields: { title: 'draft' } });
        const s = await createSchedule(
          ctx.app,
          site,
          { action: 'publish', entryId, at: inMs(1_000) },
          { ...site.key, ...bearer(leaving.token) },
        );
        const removed = await call(ctx.app, {
          method: 'DELETE',
          url: `/v1/users/${leaving.id}`,
          headers: { ...bearer(site.admin.token), 'x-cms-project-id': site.project.id },
        });
        assert.equal(removed.status, 200);

        const failed = await settled(ctx.app, site, s.id);
        assert.equal(failed.status, 'failed');
        assert.match(failed.error ?? '', new RegExp(`${leaving.email} is no longer an editor or admin`));
        assert.ok(failed.executedAt && failed.executedAt >= failed.at);
        assert.equal((await editorEntries(ctx.app, site, '/'))[0]?.status, 'draft');
        assert.deepEqual(await historyOf(ctx.app, site, entryId), []);
        assert.deepEqual(await activity(ctx, site, '&action=entry.published'), []);
        const events = await ctx.db
          .selectFrom('events')
          .select('id')
          .where('projectId', '=', site.project.id)
          .execute();
        assert.deepEqual(events, []);
      });

      it('a schedule whose entry was deleted fails; so does a page that is gone', async () => {
        const site = await newSite(ctx.app);
        const entryId = await heroEntry(ctx.app, site, '/doomed');
        const s = await createSchedule(ctx.app, site, { action: 'publish', entryId, at: inMs(1_000) });
        const p = await createSchedule(ctx.app, site, {
          action: 'publish',
          pageId: '/doomed',
          at: inMs(1_000),
        });
        const gone = await call(ctx.app, {
          method: 'DELETE',
          url: `/v1/pages/${encodeURIComponent('/doomed')}`,
          headers: { ...site.key, ...bearer(site.admin.token) },
        });
        assert.equal(gone.status, 200, JSON.stringify(gone.body));

        const failed = await settled(ctx.app, site, s.id);
        assert.equal(failed.status, 'failed');
        assert.equal(failed.error, 'The entry no longer exists.');
        const pageFailed = await settled(ctx.app, site, p.id);
        assert.equal(pageFailed.status, 'failed');
        assert.match(pageFailed.error ?? '', /page no longer exists/);
        assert.deepEqual(await activity(ctx, site, '&action=page.published'), []);
      });

      it('a canceled schedule never runs', async () => {
        const site = await newSite(ctx.app);
        const entryId = await heroEntry(ctx.app, site);
        await patchEntry(ctx.app, site, entryId, { fields: { title: 'never' } });
        const canceled = await createSchedule(ctx.app, site, { action: 'publish', entryId, at: inMs(700) });
        const res = await call(ctx.app, {
          method: 'DELETE',
          url: `/v1/schedules/${canceled.id}`,
          headers: site.editing,
        });
        assert.equal(res.status, 200);
        // A later schedule of another entry: once it has run, the worker has swept past the first one's time.
        const laterEntry = await heroEntry(ctx.app, site, '/later');
        const sentinel = await createSchedule(ctx.app, site, {
          action: 'publish',
          entryId: laterEntry,
          at: inMs(1_000),
        });
        assert.equal((await settled(ctx.app, site, sentinel.id)).status, 'done');
        assert.equal((await scheduleById(ctx.app, site, canceled.id)).status, 'canceled');
        assert.deepEqual(await historyOf(ctx.app, site, entryId), []);
        assert.deepEqual(await visitorEntries(ctx.app, site, '/'), []);
      });

      it('an entry already published as it is: the schedule is done and writes nothing', async () => {
        const site = await newSite(ctx.app);
        const entryId = await heroEntry(ctx.app, site);
        await patchEntry(ctx.app, site, entryId, { fields: { title: 'same' }, status: 'published' });
        const s = await createSchedule(ctx.app, site, { action: 'publish', entryId, at: inMs(700) });
        assert.equal((await settled(ctx.app, site, s.id)).status, 'done');
        assert.equal((await historyOf(ctx.app, site, entryId)).length, 1);
      });
    });
  },
  // A short poll, so the worker's runs follow `at` closely (tests wait for them, never on timing).
  { env: { CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'true', CMS_WORKER_POLL_MS: '25' } },
);
