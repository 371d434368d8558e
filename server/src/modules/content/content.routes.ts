import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { access } from '../../http/access.js';
import { userActorOf } from '../../http/actor.js';
import { projectIdOf, seesWorkingCopies } from '../../http/auth.js';
import { NotModified, sendCachedJson } from '../../http/etag.js';
import { pageEnvelope } from '../../http/pagination.js';
import { Envelope, errors, PageEnvelope, PageQuery } from '../../http/schemas.js';
import { entryIdAsPageId, refuseEntryIdAsPageId } from '../../shared/entry-ids.js';
import { notFound, preconditionFailed, unpublishable } from '../../shared/errors.js';
import { LIMITS } from '../definitions/index.js';
import {
  BulkPublishBody,
  BulkPublishResult,
  ContentReadQuery,
  Entry,
  EntryParams,
  HistoryItem,
  HistoryParams,
  IfMatchHeaders,
  ifMatchVersion,
  PageParams,
  ReadLocaleQuery,
  ReferenceRow,
  UpdateEntryBody,
  WriteLocaleQuery,
} from './content.schemas.js';
import type { ContentService } from './content.service.js';

const tags = ['Content'];

/** The 422 a publish refused by rules answers (contract §13), as the document's example. */
const UNPUBLISHABLE = unpublishable([
  {
    entryId: 'ent_01JD3ZK4Q7M2X8V5B6N9C0R1T2',
    locale: null,
    path: 'fields.headline',
    message: 'is required',
  },
  {
    entryId: 'ent_01JD3ZK4Q7M2X8V5B6N9C0R1T2',
    locale: null,
    path: 'fields.features[2].title',
    message: 'must be at most 60 characters',
  },
]);

const EVENT_SHAPE =
  'Writes a `content.published` event (`content.unpublished` for unpublish) into the outbox in the same transaction. Event `data`: `{ projectId, pageId, entries: [{ id, instanceKey, componentId, fields, publishedAt }], actor: { id, email } }` — `fields` are the published fields; on unpublish `fields` and `publishedAt` are null. The change reaches visitors on every instance at once (cached pages are dropped through LISTEN/NOTIFY on PostgreSQL).';

const IF_MATCH_NOTE =
  'Concurrent edits: send `If-Match: "<version>"` (the `version` you read) to write only if nobody changed the entry since; otherwise 412 `precondition_failed` with `details.currentVersion`, and nothing is written. Every change adds one to `version`.';

const CORS_NOTE =
  "Browsers: answers CORS for the project's `domains` (the Origin's host must be listed; any origin while the list is empty).";

export const contentRoutes =
  (content: ContentService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/:pageId',
      {
        config: { access: access.pageRead },
        schema: {
          tags,
          operationId: 'listPageEntries',
          summary: 'Entries of a page',
          description: `The page path is URL-encoded ("/" becomes %2F). Entries are in page order: the order in which the site's syncs sent their components (\`POST /v1/definitions/sync\` says how partial syncs place them); components from before page order was kept, and ties, in instanceKey code-unit order.

Visitors (publishable or secret key) get only entries with a published copy, showing the published fields (an edited entry keeps showing its old fields until republished), with \`status: "published"\` and \`updatedAt\` = \`publishedAt\`. An unknown page is an empty list. Visitor responses carry \`ETag\` and \`Cache-Control: no-cache\`; \`If-None-Match\` answers 304.

A member's session sent with the key (\`Authorization: Bearer <token>\` plus \`x-cms-key\`) adds drafts: every entry with its working fields; \`status\` is "published" only while the working copy equals the published copy. A preview token (\`x-cms-preview\`, from POST /v1/preview-tokens) beside the key sees the same as a member's session. These responses are \`Cache-Control: private, no-store\`.

References (fields of type \`reference\`): visitors and preview tokens read each one resolved, as a \`ResolvedReference\` \`{ id, pageId, instanceKey, componentId, fields }\` of the entry as they see it (visitors: its published copy; preview: its working copy), nested down to \`?depth=\` levels (0-3, default 1). Below that, on a cycle, or past the answer's budget: \`{ id }\`; one answer resolves at most 1,000 occurrences (a repeat counts) holding at most CMS_RESOLVE_MAX_BYTES (default 5 MiB) of JSON, spent breadth first, the first that does not fit ending it (contract §23; the API reference, "References"). A target the reader cannot see is \`null\` (single) or left out (multiple). A member's session reads the stored ids unless it sends \`?resolve=true\`. A publish, unpublish or deletion of a referenced entry changes the answer and its \`ETag\` of every page that refers to it, at once on every instance.

Languages (contract §14, §17): \`?locale=\` reads in one of the project's locales (matched case-insensitively; default: the default locale; a code the project lacks, or any \`locale\` in a project without locales, is 400 at \`query.locale\`). In a project with locales every entry carries \`locale\` and \`locales\` (in a project without locales they are left out, the contract's \`null\`s, so it answers byte for byte as before). For visitors, \`locale\` is the locale read and \`locales\` lists the locales of the read's fallback chain (the locale, its fallback, …, the default; the locale alone with \`?fallback=false\`) in which the entry has a published copy, each \`{ status: "published", publishedAt }\`: never a locale outside the chain, so a publish or unpublish in a locale changes the answers (and \`ETag\`s) of the locales whose chain passes through it and no other. A visitor sees an entry published in the locale or in a locale of its chain: each localized field from the first locale of the chain whose published copy has a value for it, shared fields from the first locale that has a published copy (the copy served, whose \`status\`, \`publishedAt\`, \`updatedAt\` and \`version\` the entry shows). \`?fallback=false\` reads the locale's own published copies only. References resolve in the reader's locale, with the same fallback. A member's session and a preview token read working copies in the locale through its chain, \`fallbacks\` naming each field whose value came from another locale; with \`?fallback=false\` they read the locale's own working copy (its own translated values and the shared ones; \`fallbacks\` is \`{}\`). Their \`locales\` names every locale of the project with the entry's \`status\`, \`publishedAt\` and \`version\` in it, and their \`problems\` cover every locale, each carrying its \`locale\`.

A page id with the form of an entry id (\`ent_\` and 26 base-32 characters) is 400 \`validation_failed\` naming \`GET /v1/entries/:entryId\`, which reads one entry.

${CORS_NOTE}`,
          params: PageParams,
          querystring: ContentReadQuery,
          response: {
            200: Envelope(Type.Array(Entry)),
            304: NotModified,
            ...errors(entryIdAsPageId(), 401, 403),
          },
        },
      },
      async (request, reply) => {
        refuseEntryIdAsPageId(request.params.pageId);
        const projectId = projectIdOf(request);
        const { pageId } = request.params;
        const { depth, resolve } = request.query;
        if (seesWorkingCopies(request.auth) && request.query.copy === 'published' && request.auth.session) {
          // What an export needs: the published copies as stored (reference ids, not resolved objects).
          reply.header('cache-control', 'private, no-store');
          const { locale, fallback } = request.query;
          return {
            data: await content.publishedAsStored(projectId, pageId, locale, fallback !== false),
            error: null,
          };
        }
        if (seesWorkingCopies(request.auth)) {
          reply.header('cache-control', 'private, no-store');
          // A member's session reads stored ids (the editing view) unless it asks; a preview token resolves.
          const resolved = request.auth.session === null || resolve === true;
          const { locale, fallback } = request.query;
          const data = resolved
            ? await content.entriesResolved(projectId, pageId, depth, locale, fallback !== false)
            : await content.entriesForEditor(projectId, pageId, locale, fallback !== false);
          return { data, error: null };
        }
        const { locale, fallback } = request.query;
        return sendCachedJson(
          request,
          reply,
          await content.publishedPageIn(projectId, pageId, depth, locale, fallback !== false),
        );
      },
    );

    app.get(
      '/:entryId/references',
      {
        config: { access: access.member },
        schema: {
          tags,
          operationId: 'listEntryReferences',
          summary: 'Entries that refer to an entry',
          description:
            'Every entry whose working or published copy refers to this one through a `reference` field: one row per entry, copy (`working` or `published`) and `path` (written as in `problems`, with indexes in that copy: `fields.author`, `fields.items[1].ref`). `locale` is null for a shared field. Ordered by pageId, instanceKey, copy and path. Callers: any member (session).',
          params: EntryParams,
          response: { 200: Envelope(Type.Array(ReferenceRow)), ...errors(400, notFound('Entry')) },
        },
      },
      async (request) => ({
        data: await content.references(projectIdOf(request), request.params.entryId),
        error: null,
      }),
    );

    app.patch(
      '/:entryId',
      {
        config: { access: access.editContent },
        schema: {
          tags,
          operationId: 'patchEntry',
          summary: 'Edit an entry, and publish it',
          description: `\`fields\` is merged into the working copy (JSON merge patch: a key set to null is removed). \`status: "published"\` then publishes the working copy; publishing an entry whose working copy already equals its published copy changes nothing (no history row, no event). \`status: "draft"\` (or no status) only saves the working copy and never takes a live entry down.

Where the page's definition declares a field, a value of the wrong shape is 400 on any write, drafts included, with its path (\`body.fields.features[2].title\`): every type's shape is in the \`FieldDeclaration\` schemas and docs (contract §13). Inside an \`object\`, a list item or a block an undeclared key is 400; undeclared top-level keys are accepted and stored. List items and blocks sent without \`_key\` get one (12 random \`[A-Za-z0-9]\`), returned here. A sent \`object\`, \`list\` or \`blocks\` value replaces the stored one whole. Limits: field keys up to ${LIMITS.keyLength} characters, each value up to ${LIMITS.fieldValueBytes} bytes as JSON (a declared object, list or blocks: up to the entry's bound), ${LIMITS.entryFieldsBytes} bytes for the entry's fields, at most ${LIMITS.fieldsPerEntry} fields per entry (400).

Rules (\`required\`, \`minLength\`, \`maxLength\`, \`pattern\`, \`min\`, \`max\`, \`integer\`, a \`link\` to a page the project does not have) never stop a draft; a publish of content that breaks one is 422 \`unpublishable\` listing every problem \`{ entryId, locale, path, message }\`, and nothing is written (not even the fields sent with it). The answer carries \`problems\`: what would stop a publish now.

On publish: ${EVENT_SHAPE} A history row records the actor and the published fields.

${IF_MATCH_NOTE} A PATCH that changes nothing keeps the version.`,
          params: EntryParams,
          querystring: ReadLocaleQuery,
          headers: IfMatchHeaders,
          body: UpdateEntryBody,
          response: {
            200: Envelope(Entry),
            ...errors(400, notFound('Entry'), preconditionFailed(3), UNPUBLISHABLE),
          },
        },
      },
      async (request) => ({
        data: await content.update(
          projectIdOf(request),
          request.params.entryId,
          request.body,
          userActorOf(request),
          ifMatchVersion(request.headers),
          request.auth.sessionCheck,
          request.query.locale,
        ),
        error: null,
      }),
    );

    app.post(
      '/bulk-publish',
      {
        config: { access: access.editorWithSiteKey },
        schema: {
          tags,
          operationId: 'bulkPublishPage',
          summary: 'Publish every draft entry of a page',
          description: `Publishes, in one transaction, every entry of the page whose working copy differs from its published copy (or that was never published); other pages are untouched. Returns the ids published (empty when nothing was a draft, and then no event is written). All or nothing: when one of the drafts breaks a rule of its definition, the answer is 422 \`unpublishable\` listing every problem of every entry, and none is published. One history row per entry; one event for the page: ${EVENT_SHAPE}`,
          body: BulkPublishBody,
          response: { 200: Envelope(BulkPublishResult), ...errors(400, 401, 403, UNPUBLISHABLE) },
        },
      },
      async (request) => ({
        data: await content.bulkPublish(
          projectIdOf(request),
          request.body.pageId,
          userActorOf(request),
          request.body.locale,
        ),
        error: null,
      }),
    );

    app.post(
      '/:entryId/unpublish',
      {
        config: { access: access.editorWithSiteKey },
        schema: {
          tags,
          operationId: 'unpublishEntry',
          summary: 'Take an entry down',
          description: `Removes the published copy: visitors stop seeing the entry; the working copy is kept (status "draft"). Unpublishing an entry that is not live changes nothing. Otherwise a history row (action "unpublish", the fields taken down) is recorded and: ${EVENT_SHAPE}

${IF_MATCH_NOTE}`,
          params: EntryParams,
          querystring: WriteLocaleQuery,
          headers: IfMatchHeaders,
          response: { 200: Envelope(Entry), ...errors(400, notFound('Entry'), preconditionFailed(3)) },
        },
      },
      async (request) => ({
        data: await content.unpublish(
          projectIdOf(request),
          request.params.entryId,
          userActorOf(request),
          ifMatchVersion(request.headers),
          request.query.locale,
        ),
        error: null,
      }),
    );

    app.get(
      '/:entryId/history',
      {
        config: { access: access.member },
        schema: {
          tags,
          operationId: 'listEntryHistory',
          summary: "An entry's publish audit trail",
          description:
            'Every publish and unpublish of the entry, newest first, with the actor and the fields published (or taken down), and (`action: "saved"`) each working copy a restore replaced while no record held it. Paginated: `?limit=` (default 50, max 200) and `?cursor=` from `meta.nextCursor`.',
          params: EntryParams,
          querystring: PageQuery,
          response: { 200: PageEnvelope(HistoryItem), ...errors(400, notFound('Entry')) },
        },
      },
      async (request) =>
        pageEnvelope(
          await content.history(projectIdOf(request), request.params.entryId, request.query),
          request.query.limit,
        ),
    );

    app.post(
      '/:entryId/history/:historyId/restore',
      {
        config: { access: access.editorWithSiteKey },
        schema: {
          tags,
          operationId: 'restoreEntryVersion',
          summary: 'Restore a version from the history into the working copy',
          description: `The entry's working copy becomes the fields of that history row (replacing it, not merging). Nothing is published: the entry is a draft until published as usual, and visitors keep seeing the current published copy. Values the definition no longer accepts (it changed since) are kept and listed in the answer's \`problems\`: they stop a publish (422) until an editor fixes them.

A restore loses nothing: when the working copy it replaces equals no record of the entry's history (an unpublished draft), that working copy is first recorded as a history row with \`action: "saved"\` (the restoring caller as \`actor\`), so restoring it back is one more restore. Restoring the version the working copy already holds changes nothing.

${IF_MATCH_NOTE}`,
          params: HistoryParams,
          headers: IfMatchHeaders,
          response: {
            200: Envelope(Entry),
            ...errors(400, notFound('Entry'), notFound('History entry'), preconditionFailed(3)),
          },
        },
      },
      async (request) => ({
        data: await content.restore(
          projectIdOf(request),
          request.params.entryId,
          request.params.historyId,
          userActorOf(request),
          ifMatchVersion(request.headers),
        ),
        error: null,
      }),
    );
  };
