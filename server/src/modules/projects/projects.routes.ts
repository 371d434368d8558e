import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { access } from '../../http/access.js';
import { userActorOf } from '../../http/actor.js';
import { projectIdOf } from '../../http/auth.js';
import { Envelope, errors } from '../../http/schemas.js';
import { conflict, rateLimited } from '../../shared/errors.js';
import type { WindowLimiter } from '../rate-limits/index.js';
import {
  CreateProjectBody,
  CreateProjectResponse,
  Project,
  ProjectParams,
  ProjectWithRole,
  UpdateProjectBody,
} from './projects.schemas.js';
import { type ProjectsService, wrongEmailOrPassword } from './projects.service.js';

const tags = ['Projects'];

export const projectsRoutes =
  (projects: ProjectsService, createLimit: WindowLimiter): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/',
      {
        config: { access: access.anyone },
        // Creating a project needs no credential, so it is the one write a stranger can repeat (and,
        // with an existing email, a password guess): every valid request counts against the client
        // address, in the database, so the limit holds across instances.
        preHandler: async (request) => createLimit.hit(request.ip),
        schema: {
          tags,
          operationId: 'createProject',
          summary: 'Create a project and its first admin',
          description:
            'No authentication. If the email already has an account, the project is added to it when the password matches; otherwise 409 `conflict` with the words login answers for a wrong email or password ("Wrong email or password."): the answer names neither the email nor an account. Limited per client address (CMS_PROJECT_CREATE_LIMIT_PER_HOUR, default 20 an hour, counted in the database and shared by every instance): 429 with Retry-After.',
          body: CreateProjectBody,
          response: {
            201: Envelope(CreateProjectResponse),
            ...errors(
              400,
              wrongEmailOrPassword(),
              rateLimited(3600, 'Too many projects created from this address.'),
            ),
          },
        },
      },
      async (request, reply) =>
        reply.code(201).send({ data: await projects.create(request.body), error: null }),
    );

    app.get(
      '/',
      {
        config: { access: access.signedIn },
        schema: {
          tags,
          operationId: 'listProjects',
          summary: "List the signed-in account's projects, with its role in each",
          response: { 200: Envelope(Type.Array(ProjectWithRole)), ...errors() },
        },
      },
      async (request) => ({
        data: await projects.listForAccount(request.auth.session!.accountId),
        error: null,
      }),
    );

    app.get(
      '/:id',
      {
        config: { access: access.memberOfParam },
        schema: {
          tags,
          operationId: 'getProject',
          summary: 'Get a project',
          params: ProjectParams,
          response: { 200: Envelope(Project), ...errors(400) },
        },
      },
      async (request) => ({ data: await projects.get(projectIdOf(request)), error: null }),
    );

    app.patch(
      '/:id',
      {
        config: { access: access.adminOfParam },
        schema: {
          tags,
          operationId: 'patchProject',
          summary: 'Update a project',
          description:
            '`deployHooks` replaces the list. A hook sent without `secret` keeps the stored secret of the hook with the same id; `secret: null` clears it. Secrets are never returned, and are stored encrypted (AES-256-GCM under CMS_ENCRYPTION_KEY). `definitionSync` (`additive`, `locked`, `open`) bounds what a definitions sync with the publishable key may change; see POST /v1/definitions/sync.',
          params: ProjectParams,
          body: UpdateProjectBody,
          response: {
            200: Envelope(Project),
            ...errors(400, conflict('Deploy hook id "netlify" is used twice.')),
          },
        },
      },
      async (request) => ({
        data: await projects.update(projectIdOf(request), request.body, userActorOf(request)),
        error: null,
      }),
    );

    app.post(
      '/:id/rotate-key',
      {
        config: { access: access.adminOfParam },
        schema: {
          tags,
          operationId: 'rotateProjectKey',
          summary: 'Replace the publishable key',
          description: 'The old key stops working at once.',
          params: ProjectParams,
          response: { 200: Envelope(Project), ...errors(400) },
        },
      },
      async (request) => ({
        data: await projects.rotateKey(projectIdOf(request), userActorOf(request)),
        error: null,
      }),
    );
  };
