import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access } from '../../http/access.js';
import { userActorOf } from '../../http/actor.js';
import { projectIdOf } from '../../http/auth.js';
import { pageEnvelope } from '../../http/pagination.js';
import { Deleted, Envelope, errors, PageEnvelope } from '../../http/schemas.js';
import { AppError, notFound } from '../../shared/errors.js';
import { scheduleCursor } from './schedules.rules.js';
import { CreateScheduleBody, Schedule, ScheduleParams, ScheduleQuery } from './schedules.schemas.js';
import type { SchedulesService } from './schedules.service.js';

const tags = ['Schedules'];

const RUNNING = `The worker runs a schedule at \`at\`, never before, and at most \`CMS_WORKER_POLL_MS\` (500 ms) plus a second after (schedules falling due at the same moment run one after the other, so the last of many runs later; one schedule of a page publishes all its drafts at once). A page's schedules run in the order of \`at\`. Exactly once, whatever the number of instances and workers and across crashes: each schedule runs in one database transaction that claims it, acts and marks it \`done\`, so a crash leaves it pending for the next worker. "Now" is the earlier of the database's clock and the worker's. The effect is the manual action's, by \`createdBy\`, on the working copy as it is at that moment (edits made after scheduling are published): history rows (actor \`createdBy\`), the \`content.published\` / \`content.unpublished\` event (webhooks, deploy hooks), cache and live-stream updates on every instance, and an activity record with \`actor: { type: "system", onBehalfOf: createdBy }\`. An entry already published as it is (or not live, for unpublish) and a page without drafts change nothing, and the schedule is still \`done\`. If the entry or page is gone, or \`createdBy\` is no longer an editor or admin of the project, the schedule is \`failed\` with \`error\` set, and nothing else changes.`;

export const schedulesRoutes =
  (schedules: SchedulesService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/',
      {
        config: { access: access.editorWithSiteKey },
        schema: {
          tags,
          operationId: 'createSchedule',
          summary: 'Schedule a publish or unpublish',
          description: `An editor or admin (session plus the project's \`x-cms-key\`) schedules \`publish\` or \`unpublish\` of one entry (\`entryId\`), or \`publish\` of a page (\`pageId\`: every entry that is a draft at that moment, as bulk-publish). Exactly one of the two (400 otherwise); \`unpublish\` takes only \`entryId\` (400). \`at\` must be later than now and at most one year ahead (400 \`validation_failed\`, \`details\` on \`body.at\`). An entry that does not exist in the project, or a page with neither entries nor definitions, is 404. Answers 201 with the schedule, \`status: "pending"\`; an activity record \`schedule.created\` is written with it.

${RUNNING}`,
          body: CreateScheduleBody,
          response: { 201: Envelope(Schedule), ...errors(400, notFound('Entry'), notFound('Page')) },
        },
      },
      async (request, reply) => {
        const schedule = await schedules.create(projectIdOf(request), request.body, userActorOf(request));
        return reply.code(201).send({ data: schedule, error: null });
      },
    );

    app.get(
      '/',
      {
        config: { access: access.member },
        schema: {
          tags,
          operationId: 'listSchedules',
          summary: "The project's schedules",
          description: `Any member. Pending schedules first, soonest \`at\` first; then the others (\`done\`, \`failed\`, \`canceled\`) newest first (by creation). \`?status=\` keeps one status, in that status's order. Paginated: \`?limit=\` (default 50, max 200) and \`?cursor=\` from \`meta.nextCursor\` (a cursor belongs to the list it came from: one from the pending part on a \`?status=done\` list is a 400). A schedule that runs while you page moves from one part to the other, so it may be seen twice or not at all.`,
          querystring: ScheduleQuery,
          response: { 200: PageEnvelope(Schedule), ...errors(400) },
        },
      },
      async (request) =>
        pageEnvelope(
          await schedules.list(projectIdOf(request), request.query),
          request.query.limit,
          scheduleCursor,
        ),
    );

    app.delete(
      '/:id',
      {
        config: { access: access.editor },
        schema: {
          tags,
          operationId: 'cancelSchedule',
          summary: 'Cancel a pending schedule',
          description:
            "An editor or admin cancels a pending schedule: its `status` becomes `canceled` (it stays in the list) and an activity record `schedule.canceled` is written. A schedule that already ran (`done` or `failed`) or was canceled is 409 `conflict` with `details.status`. A cancel and the worker never both win: the one that takes the schedule first decides, and the other sees its outcome. Another project's schedule is 404.",
          params: ScheduleParams,
          response: {
            200: Deleted,
            ...errors(
              400,
              notFound('Schedule'),
              new AppError('conflict', 409, 'This schedule has already run.', { status: 'done' }),
            ),
          },
        },
      },
      async (request) => ({
        data: await schedules.cancel(projectIdOf(request), request.params.id, userActorOf(request)),
        error: null,
      }),
    );
  };
