import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access } from '../../http/access.js';
import { projectIdOf } from '../../http/auth.js';
import { pageEnvelope } from '../../http/pagination.js';
import { errors, PageEnvelope } from '../../http/schemas.js';
import { ActivityItem, ActivityQuery } from './activity.schemas.js';
import type { ActivityService } from './activity.service.js';

const tags = ['Activity'];

export const activityRoutes =
  (activity: ActivityService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/',
      {
        config: { access: access.admin },
        schema: {
          tags,
          operationId: 'listActivity',
          summary: "The project's activity log",
          description: `Who changed what, newest first: one record per change made through the API, written in the same transaction as the change (a change that failed left none). Paginated: \`?limit=\` (default 50, max 200) and \`?cursor=\` from \`meta.nextCursor\`. Filters combine: \`?action=\`, \`?targetId=\` (an entry, webhook, user, key, media or schedule id; a page's \`pageId\`; an object's \`type/id\`), \`?actorId=\` (a user's or key's id; a member's id also finds the scheduled work done on their behalf).

Actors: \`{ type: "user", id, email }\` (a session), \`{ type: "apiKey", id, name }\` (a secret key), \`{ type: "site" }\` (the publishable key: definitions sync), \`{ type: "system", onBehalfOf: { id, email } }\` (scheduled publishing). Emails and names are as they were at that moment. A change to an API key is recorded in every project the key covered at that moment. No password, token, key or secret ever appears in a record. Records older than \`CMS_ACTIVITY_RETENTION_DAYS\` (default 365) are deleted by the worker.`,
          querystring: ActivityQuery,
          response: { 200: PageEnvelope(ActivityItem), ...errors(400) },
        },
      },
      async (request) =>
        pageEnvelope(await activity.list(projectIdOf(request), request.query), request.query.limit),
    );
  };
