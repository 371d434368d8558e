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
import { INVITED_NOT_MEMBER, NOT_EVERY_PROJECT, OWN_PASSWORD, type UsersService } from './users.service.js';

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
          summary: 'List the members of the project and its pending invitations',
          description:
            'Members (`status: "active"`) as they joined, then pending invitations of existing accounts (`status: "invited"`, with `invitationExpiresAt`; `name` is empty until the account accepts), oldest first. An invited account has no access to the project until it accepts.',
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
            'A new email: the account is created and added (`status: "active"`). With `password`, it signs in with it; without one, it cannot sign in and the answer carries `setPasswordToken` (`cms_sp_…`, shown once) and `setPasswordExpiresAt` (72 hours): the invitee sets a password with POST /v1/auth/set-password. An email that already has an account is not added (contract §23): the answer is a pending invitation (`status: "invited"`, which gives no access at all) with `invitationToken` (`cms_inv_…`, shown once, stored hashed) and `invitationExpiresAt` (72 hours); the account joins when a session of that very account sends the token to POST /v1/invitations/accept. Its password, and any `password` or `name` sent, are left alone. Inviting a pending account again replaces its invitation (a new token, the new role). Which of the two pairs comes back tells the admin whether the email had an account, as the contract\'s shapes imply; nothing else does (the name of an invited account is not shown). Cancel a pending invitation with DELETE /v1/users/:id. Activity: `user.added` (and `user.password_reset_issued` when a set-password link was issued), or `user.invited`; never with a token.',
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
            "A project admin's session. Answers `setPasswordToken` (`cms_sp_…`, shown once) and `setPasswordExpiresAt` (72 hours) for a member of the project, to hand over: POST /v1/auth/set-password with it sets the account's password and ends its sessions. Issuing ends none of them, and voids the account's older link. Only an admin of every project the account belongs to may issue one (403 otherwise: an admin of one site cannot take over an account that also belongs to another); the right is checked again when the link is used. Never for the caller's own account: 403 (change one's own password with POST /v1/auth/password, which asks for the current one). A pending invitee is not a member: 404. Activity: `user.password_reset_issued` in every project of the account, never with the token.",
          params: UserParams,
          response: {
            200: Envelope(SetPasswordLink),
            ...errors(400, forbidden(NOT_EVERY_PROJECT), forbidden(OWN_PASSWORD), notFound('User')),
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
          description:
            'A pending invitation is 409: invite the email again to change its role (a new token replaces the old one).',
          params: UserParams,
          body: UpdateUserBody,
          response: {
            200: Envelope(User),
            ...errors(400, notFound('User'), LAST_ADMIN, conflict(INVITED_NOT_MEMBER)),
          },
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
          summary: 'Remove a member from the project, or cancel a pending invitation',
          description:
            'The id is the account id. A member loses access at once (their preview tokens end). A pending invitation is canceled: its token stops working (activity `user.invitation_canceled`).',
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
