import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { access } from '../../http/access.js';
import { userActorOf } from '../../http/actor.js';
import { projectIdOf } from '../../http/auth.js';
import { Deleted, Envelope, errors } from '../../http/schemas.js';
import { conflict, notFound } from '../../shared/errors.js';
import { CreateUserBody, UpdateUserBody, User, UserParams } from './users.schemas.js';
import type { UsersService } from './users.service.js';

const tags = ['Users'];
const LAST_ADMIN = conflict('A project needs at least one admin; promote another member first.');

export const usersRoutes =
  (users: UsersService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/',
      {
        config: { access: access.member },
        schema: {
          tags,
          operationId: 'listUsers',
          summary: 'List the members of the project',
          response: { 200: Envelope(Type.Array(User)), ...errors() },
        },
      },
      async (request) => ({ data: await users.list(projectIdOf(request)), error: null }),
    );

    app.post(
      '/',
      {
        config: { access: access.admin },
        schema: {
          tags,
          operationId: 'createUser',
          summary: 'Add a user to the project',
          body: CreateUserBody,
          response: {
            201: Envelope(User),
            ...errors(400, conflict('grace@example.com is already a member of this project.')),
          },
        },
      },
      async (request, reply) => {
        const user = await users.create(projectIdOf(request), request.body, userActorOf(request));
        return reply.code(201).send({ data: user, error: null });
      },
    );

    app.patch(
      '/:id',
      {
        config: { access: access.admin },
        schema: {
          tags,
          operationId: 'patchUser',
          summary: "Change a member's name or role",
          params: UserParams,
          body: UpdateUserBody,
          response: { 200: Envelope(User), ...errors(400, notFound('User'), LAST_ADMIN) },
        },
      },
      async (request) => ({
        data: await users.update(projectIdOf(request), request.params.id, request.body, userActorOf(request)),
        error: null,
      }),
    );

    app.delete(
      '/:id',
      {
        config: { access: access.admin },
        schema: {
          tags,
          operationId: 'deleteUser',
          summary: 'Remove a member from the project',
          params: UserParams,
          response: { 200: Deleted, ...errors(400, notFound('User'), LAST_ADMIN) },
        },
      },
      async (request) => {
        await users.remove(projectIdOf(request), request.params.id, userActorOf(request));
        return { data: { id: request.params.id, deleted: true as const }, error: null };
      },
    );
  };
