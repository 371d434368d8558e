import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { access } from '../../http/access.js';
import { activityActorOf } from '../../http/actor.js';
import { projectIdOf } from '../../http/auth.js';
import { NotModified, sendCachedJson } from '../../http/etag.js';
import { Envelope, errors } from '../../http/schemas.js';
import { forbidden, notFound } from '../../shared/errors.js';
import { LIMITS } from './objects.limits.js';
import {
  ObjectDeleted,
  ObjectParams,
  ObjectsQuery,
  ObjectView,
  SaveBody,
  SaveResult,
} from './objects.schemas.js';
import type { ObjectsService } from './objects.service.js';

const tags = ['Objects'];

const SAVE_DESCRIPTION = `Upserts schemaless objects by \`(type, id, fieldPath)\` and \`(type, id, collection, itemId)\`.

- Without \`status\` (on the object or the request; the object's wins) a save is a **draft**: it shows in \`GET /v1/objects?draft=true\` only, and the published view keeps its last published values. With \`published\` the values are visible everywhere and an \`objects.published\` event is written in the same transaction (webhooks, deploy hooks).
- Nested plain objects in \`fields\` are flattened to dotted paths (\`{ "seo": { "title": "x" } }\` is the field \`seo.title\`); values are strings, numbers, booleans or null; arrays belong in collections.
- A collection that is sent becomes exactly the items sent, in the order sent (in the draft for a draft save; in both views for a published save). Fields and collections that are not sent stay as they are; a published save publishes only what it sends.
- An empty collection (\`[]\`) removes its items; it then no longer appears when reading.
- The whole request is one transaction: all of it is saved or none. Concurrent saves of the same objects run one after the other.
- Counts: \`fields.inserted/updated\` and \`items.inserted/updated\` count rows created vs. rows that existed; \`items.removed\` counts items taken out of a collection.
- Limits (400 \`validation_failed\` with \`details\`): ${LIMITS.objectsPerSave} objects per save, ${LIMITS.fieldsPerObject} fields per object after flattening, nesting depth ${LIMITS.flattenDepth}, ${LIMITS.collectionsPerObject} collections per object, ${LIMITS.itemsPerCollection} items per collection, type ${LIMITS.typeLength} and id ${LIMITS.idLength} characters, field path / collection name / item id ${LIMITS.pathLength} characters, a string value or an item value (as JSON) ${LIMITS.valueLength} characters; the same object twice in one save, or the same item twice in one collection, is refused. The body limit (\`CMS_BODY_LIMIT_BYTES\`) gives 413.

Callers: an editor or admin session, or a \`write\` secret key (a \`read\` key is 403). A key covering several sites needs \`x-cms-project-id\`.`;

const READ_DESCRIPTION = `The unified overlay: each object's fields and collections merged, ordered by type then id (code-unit order); collections keep their saved order.

- Published view by default: objects that were published at least once, with their published values; \`updatedAt\` is the last publish.
- \`draft=true\`: the working copy of every object (published values where no draft was saved since); \`updatedAt\` is the last save. Only with a session, a secret key, or a preview token (\`x-cms-preview\`) beside the project's \`x-cms-key\`; the publishable key alone gets 403 (send the session without \`x-cms-key\`).
- Callers: publishable key, member session or secret key (its sites only; \`x-cms-project-id\` when it covers several).`;

export const objectsRoutes =
  (objects: ObjectsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/save',
      {
        config: { access: access.objectsWrite },
        schema: {
          tags,
          operationId: 'saveObjects',
          summary: 'Save objects (upsert fields and collections)',
          description: SAVE_DESCRIPTION,
          body: SaveBody,
          response: { 200: Envelope(SaveResult), ...errors(400) },
        },
      },
      async (request) => ({
        data: await objects.save(projectIdOf(request), request.body, activityActorOf(request)),
        error: null,
      }),
    );

    app.delete(
      '/:type/:id',
      {
        config: { access: access.objectsWrite },
        schema: {
          tags,
          operationId: 'deleteObject',
          summary: 'Delete an object',
          description: `Removes the object's draft and published rows (fields and collections): it leaves the draft overlay, the published view and the snapshot at once, on every instance. When it had been published, an \`objects.deleted\` event \`{ projectId, objects: [{ type, id }] }\` is written in the same transaction (webhooks, deploy hooks). \`type\` and \`id\` are URL-encoded. An unknown object is 404.

Callers: as for save, an editor or admin session, or a \`write\` secret key (a \`read\` key is 403).`,
          params: ObjectParams,
          response: { 200: Envelope(ObjectDeleted), ...errors(400, notFound('Object')) },
        },
      },
      async (request) => ({
        data: await objects.remove(
          projectIdOf(request),
          request.params.type,
          request.params.id,
          activityActorOf(request),
        ),
        error: null,
      }),
    );

    app.get(
      '/',
      {
        config: { access: access.objectsRead },
        schema: {
          tags,
          operationId: 'listObjects',
          summary: 'Read objects (unified overlay)',
          description: READ_DESCRIPTION,
          querystring: ObjectsQuery,
          response: {
            200: Envelope(Type.Array(ObjectView)),
            304: NotModified,
            ...errors(400, forbidden('Drafts need a session or a secret API key, not the publishable key.')),
          },
        },
      },
      async (request, reply) => {
        const projectId = projectIdOf(request);
        const { types, draft } = request.query;
        if (draft) {
          reply.header('cache-control', 'private, no-store');
          return { data: await objects.draftView(projectId, types, request.auth.via), error: null };
        }
        return sendCachedJson(request, reply, await objects.publishedView(projectId, types));
      },
    );
  };
