import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { access } from '../../http/access.js';
import { userActorOf } from '../../http/actor.js';
import { projectIdOf } from '../../http/auth.js';
import { Deleted, Envelope, errors } from '../../http/schemas.js';
import { conflict, forbidden, notFound } from '../../shared/errors.js';
import {
  CreatedUser,
  CreateUserBody,
  SetPasswordLink,
  UpdateUserBody,
  User,
  UserParams,
} from './users.schemas.js';
import { NOT_EVERY_PROJECT, type UsersService } from './users.service.js';

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
          description:
            'An email that already has an account adds a membership (its password is left alone, and no set-password link is ever issued for it). A new account takes `password`, or, without one, is created unable to sign in and the answer carries `setPasswordToken` (`cms_sp_…`, shown once) and `setPasswordExpiresAt` (72 hours): the invitee sets a password with POST /v1/auth/set-password. The link is void if the account joins another project before it is used. Activity: `user.added`, and `user.password_reset_issued` when a link was issued (never with the token).',
          body: CreateUserBody,
          response: {
            201: Envelope(CreatedUser),
            ...errors(400, conflict('grace@example.com is already a member of this project.')),
          },
        },
      },
      async (request, reply) => {
        const user = await users.create(projectIdOf(request), request.body, userActorOf(request));
        return reply.code(201).send({ data: user, error: null });
      },
    );

    app.post(
      '/:id/password-reset',
      {
        config: { access: access.admin },
        schema: {
          tags,
          operationId: 'issuePasswordReset',
          summary: 'Issue a set-password link for a member',
          description:
            "A project admin's session. Answers `setPasswordToken` (`cms_sp_…`, shown once) and `setPasswordExpiresAt` (72 hours) for a member of the project, to hand over: POST /v1/auth/set-password with it sets the account's password and ends its sessions. Issuing ends none of them, and voids the account's older link. Only an admin of every project the account belongs to may issue one (403 otherwise: an admin of one site cannot take over an account that also belongs to another); the right is checked again when the link is used. Activity: `user.password_reset_issued` in every project of the account, never with the token.",
          params: UserParams,
          response: {
            200: Envelope(SetPasswordLink),
            ...errors(400, forbidden(NOT_EVERY_PROJECT), notFound('User')),
          },
        },
      },
      async (request) => ({
        data: await users.passwordReset(projectIdOf(request), request.params.id, userActorOf(request)),
        error: null,
      }),
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
