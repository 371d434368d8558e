import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { access } from '../../http/access.js';
import { projectIdOf } from '../../http/auth.js';
import { Envelope, errors } from '../../http/schemas.js';
import {
  CreateProjectBody,
  CreateProjectResponse,
  Project,
  ProjectParams,
  ProjectWithRole,
  UpdateProjectBody,
} from './projects.schemas.js';
import type { ProjectsService } from './projects.service.js';

const tags = ['Projects'];

export const projectsRoutes =
  (projects: ProjectsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/',
      {
        config: { access: access.anyone },
        schema: {
          tags,
          summary: 'Create a project and its first admin',
          description:
            'No authentication. If the email already has an account, the project is added to it when the password matches; otherwise 409.',
          body: CreateProjectBody,
          response: { 201: Envelope(CreateProjectResponse), ...errors(400, 409, 429) },
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
          summary: "List the signed-in account's projects, with its role in each",
          response: { 200: Envelope(Type.Array(ProjectWithRole)), ...errors(401) },
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
          summary: 'Get a project',
          params: ProjectParams,
          response: { 200: Envelope(Project), ...errors(400, 401, 403) },
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
          summary: 'Update a project',
          description:
            '`deployHooks` replaces the list. A hook sent without `secret` keeps the stored secret of the hook with the same id; `secret: null` clears it. Secrets are never returned.',
          params: ProjectParams,
          body: UpdateProjectBody,
          response: { 200: Envelope(Project), ...errors(400, 401, 403, 409) },
        },
      },
      async (request) => ({ data: await projects.update(projectIdOf(request), request.body), error: null }),
    );

    app.post(
      '/:id/rotate-key',
      {
        config: { access: access.adminOfParam },
        schema: {
          tags,
          summary: 'Replace the publishable key',
          description: 'The old key stops working at once.',
          params: ProjectParams,
          response: { 200: Envelope(Project), ...errors(400, 401, 403) },
        },
      },
      async (request) => ({ data: await projects.rotateKey(projectIdOf(request)), error: null }),
    );
  };
