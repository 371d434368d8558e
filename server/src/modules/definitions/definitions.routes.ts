import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import { access } from '../../http/access.js';
import { activityActorOf } from '../../http/actor.js';
import { projectIdOf } from '../../http/auth.js';
import { Envelope, errors } from '../../http/schemas.js';
import { siteBodyTooLarge } from '../../http/site-body-limit.js';
import { entryIdAsPageId, refuseEntryIdAsPageId } from '../../shared/entry-ids.js';
import { AppError, rulesTooCostly } from '../../shared/errors.js';
import {
  Definition,
  DryRunResult,
  PageParams,
  SyncBody,
  SyncQuery,
  SyncResult,
} from './definitions.schemas.js';
import { type DefinitionsService, entryIdNeedsMember, syncLocked } from './definitions.service.js';
import { TOO_COSTLY as TOO_COSTLY_MESSAGE } from './field-checks.js';
import { LIMITS } from './limits.js';
import { MAX_PATTERN_PROGRAM, MAX_PATTERN_VALUE } from './pattern-engine.js';
import type { SyncScope } from './sync-plan.js';

const tags = ['Definitions'];
const PAGE_LIMIT = new AppError(
  'conflict',
  409,
  `A page can hold at most ${LIMITS.componentsPerPage} components.`,
  { limit: LIMITS.componentsPerPage },
);

const TOO_COSTLY = rulesTooCostly(200, [
  { path: 'body.components[0].fields[0].default', message: TOO_COSTLY_MESSAGE },
]);

const SYNC_DESCRIPTION = `Registers a page's components: each sent \`(pageId, instanceKey)\` definition is upserted, definitions not sent are kept, and a stub entry (\`fields: {}\`, \`status: "draft"\`) is created only where none exists. Idempotent: an unchanged sync writes nothing.

Who may change what (contract §11). The publishable key (x-cms-key) ships in every visitor's browser, so what it may do is the project's \`definitionSync\` setting:
- \`additive\` (the default): new definitions, and new fields on an existing definition, are taken. A changed \`componentId\`, a changed field \`type\` and a field left out are not: they stay as stored and are listed in \`rejected\` (one item per part), and the answer is still 200.
- \`locked\`: 403, nothing changes.
- \`open\`: the sent definitions replace the stored ones (development).
A member's session (Authorization: Bearer, editor or admin; it counts when sent beside the key too) or a \`write\` secret key (the project chosen as for objects save: x-cms-project-id, or the key's only site) may always change everything; a \`read\` secret key is 403. A changed \`componentId\` reaches the entry, published copy included; a changed field type applies to the next save of the entry.

Page order: \`components\` is the order the site renders them. Reads of the page (\`GET /v1/content/:pageId\` and \`GET /v1/definitions/:pageId\`, for visitors, editors and live streams) list its components in that order. A sync that lists part of the page orders what it lists among the places those components hold and moves nothing it leaves out; a new component goes right after the one sent before it (or, first in the sync, right before the first listed component the page already has; a sync of new components only appends them). A change of order alone is a write (any caller the sync accepts, the publishable key in \`additive\` mode included); the same order is not.

Entry ids (an import that keeps ids): a member's session or a write secret key may send a component's \`entryId\` (\`ent_\` and 26 base-32 characters). If this sync creates the component's entry and no entry of any project holds that id, the entry gets it; otherwise the entry gets a new id (or keeps the one it has) and the answer's \`changedIds\` lists \`{ instanceKey, requested, id }\`, the same whether the id was held in this project or in another (nothing of another project is disclosed). \`changedIds\` is present only when an \`entryId\` was sent. The publishable key sending one is 403; an id sent twice in one request is 400; a dry run checks them and reports nothing of them.

\`?dryRun=true\` (same credentials) answers \`{ pageId, created, changed: [{ instanceKey, from, to }], rejected }\` and writes nothing.

Rate limit: syncs with the publishable key (dry runs included) are limited per project to CMS_SYNC_LIMIT_PER_MINUTE (default 120) in fixed one-minute windows shared by every instance; then 429 with Retry-After. Sessions and secret keys are not limited.

Refusals come before the body is read: with the publishable key alone, a \`locked\` project's 403 and the limit's 429 are answered before the body is parsed or checked (its declarations and \`default\`s included), and a body over 1 MB is 413 (by Content-Length, or once 1 MB of a chunked body has arrived). A member's session or a secret key keeps the general limit (CMS_BODY_LIMIT_BYTES, 5 MB by default).

Fields: \`{ key, type, ...options }\` of the types \`text\`, \`richtext\`, \`number\`, \`boolean\`, \`select\`, \`date\`, \`datetime\`, \`color\`, \`image\`, \`url\`, \`json\`, \`link\`, \`reference\`, \`object\`, \`list\`, \`blocks\` (the \`FieldDeclaration\` schemas; contract §13). A bad declaration is 400 with every problem's path (\`body.components[0].fields[2].fields[0].options\`); an unknown type is one sentence listing the types. \`default\`s fill the working copy of a stub the sync creates; a publishable-key sync's defaults are ignored (listed in \`rejected\`) unless \`definitionSync\` is \`open\`. In \`additive\` mode the publishable key cannot change a stored field's declaration (nested fields included), and a field it adds to an existing definition is stored without its rules and default (each listed in \`rejected\`). An instanceKey or field key sent twice in one request is 400, and so is the field key \`__proto__\` (no body could carry a value for it); \`constructor\`, \`toString\` and other names objects inherit are keys like any other.

Limits (the publishable key is public, so they bound what a stranger can add): at most ${LIMITS.componentsPerSync} components per request, ${LIMITS.declarationsPerComponent} declarations per component at every depth, containers nested ${LIMITS.containerDepth} deep, ${LIMITS.componentDeclarationBytes / 1024} KB of declarations per component, 1–200 select options, patterns of at most 200 characters (RE2 syntax, linear time; a backreference is 400) compiling to at most ${MAX_PATTERN_PROGRAM} instructions (a counted repeat copies what it repeats: \`(?:a?){1000}\` is 2,000; 400 beyond) (400); page paths up to ${LIMITS.pagePathLength} characters, componentId, instanceKey and field keys up to ${LIMITS.keyLength} (400); at most ${LIMITS.componentsPerPage} components on one page and CMS_MAX_PAGES_PER_PROJECT pages per project (default 20000), counting every sync (409 \`conflict\` with \`details.limit\`).

Rule cost (contract §23): a value of more than ${MAX_PATTERN_VALUE} characters never matches a pattern; the sync's pattern compiles and its defaults' pattern checks run within CMS_RULES_BUDGET_MS (default 200) of CPU for the whole request, and a sync that cannot be checked within it is 422 \`unpublishable\` (\`details\`: the problems, those not checked saying so), nothing written.

Browsers: answers CORS for the project's \`domains\` (any origin while the list is empty).`;

function scopeOf(admitted: WeakMap<FastifyRequest, SyncScope>, request: FastifyRequest): SyncScope {
  const scope = admitted.get(request);
  if (!scope) throw new AppError('internal_error', 500, 'A sync reached its handler without admission.');
  return scope;
}

export const definitionsRoutes =
  (definitions: DefinitionsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    // What admission answered for each sync under way, from preParsing to the handler.
    const admitted = new WeakMap<FastifyRequest, SyncScope>();
    app.post(
      '/sync',
      {
        config: { access: access.definitionsSync },
        // Admission before the body is read (contract §23 "cheap refusals"): the credential is
        // resolved by then (the auth hook runs on request), so a locked project's 403 and the
        // limit's 429 cost no parse, no schema check and no rule check of a body up to 1 MB (one
        // over 1 MB with the publishable key is cut next, src/http/site-body-limit.ts).
        // Rejected: a preValidation hook, which runs after the whole body is parsed.
        preParsing: async (request, _reply, payload) => {
          const caller = activityActorOf(request).type === 'site' ? 'site' : 'member';
          admitted.set(request, await definitions.admit(projectIdOf(request), caller));
          return payload;
        },
        schema: {
          tags,
          operationId: 'syncDefinitions',
          summary: "Register a page's components and create their stub entries",
          description: SYNC_DESCRIPTION,
          querystring: SyncQuery,
          body: SyncBody,
          response: {
            200: Envelope(Type.Union([SyncResult, DryRunResult])),
            ...errors(
              400,
              syncLocked(),
              entryIdNeedsMember(),
              siteBodyTooLarge(),
              429,
              PAGE_LIMIT,
              TOO_COSTLY,
            ),
          },
        },
      },
      async (request) => ({
        data: await definitions.sync(projectIdOf(request), {
          ...request.body,
          // The publishable key alone is the site; a session beside it, or a secret key, is a member.
          actor: activityActorOf(request),
          dryRun: request.query.dryRun,
          scope: scopeOf(admitted, request),
        }),
        error: null,
      }),
    );

    app.get(
      '/:pageId',
      {
        config: { access: access.member },
        schema: {
          tags,
          operationId: 'listDefinitions',
          summary: 'Component definitions of a page (for the dashboard)',
          description:
            'The page path is URL-encoded ("/" becomes %2F). In page order (the order syncs sent the components; see POST /v1/definitions/sync), then instanceKey; an unknown page gives an empty list. A page id with the form of an entry id is 400 naming `GET /v1/entries/:entryId`.',
          params: PageParams,
          response: { 200: Envelope(Type.Array(Definition)), ...errors(entryIdAsPageId(), 401, 403) },
        },
      },
      async (request) => {
        refuseEntryIdAsPageId(request.params.pageId);
        return { data: await definitions.ofPage(projectIdOf(request), request.params.pageId), error: null };
      },
    );
  };
