import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access } from '../../http/access.js';
import { Envelope, errors } from '../../http/schemas.js';
import { forbidden, invalidCredentials, rateLimited, unauthorized } from '../../shared/errors.js';
import { NOT_EVERY_PROJECT } from '../users/index.js';
import {
  ChangePasswordBody,
  LoginBody,
  LoginResponse,
  LogoutResponse,
  Me,
  PasswordChanged,
  Session,
  SetPasswordBody,
} from './auth.schemas.js';
import type { AuthService } from './auth.service.js';

const tags = ['Auth'];

export const authRoutes =
  (auth: AuthService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/login',
      {
        config: { access: access.anyone },
        schema: {
          tags,
          operationId: 'login',
          summary: 'Sign in with email and password',
          description:
            'Returns a session token. After 10 failures in 15 minutes for one client address and email (or 100 for one address) the answer is 429 with Retry-After.',
          body: LoginBody,
          response: {
            200: Envelope(LoginResponse),
            ...errors(
              400,
              invalidCredentials(),
              rateLimited(900, 'Too many failed sign-in attempts. Try again later.'),
            ),
          },
        },
      },
      async (request) => ({ data: await auth.login(request.body, request.ip), error: null }),
    );

    app.post(
      '/password',
      {
        config: { access: access.signedIn },
        schema: {
          tags,
          operationId: 'changePassword',
          summary: 'Change your own password',
          description:
            "`currentPassword` must be the account's password: a wrong one is 401 `invalid_credentials` and counts as a failed sign-in for the login limit (10 failures in 15 minutes for one client address and email, then 429 with Retry-After). `newPassword`: 8 to 256 characters. Success ends every other session of the account (the presented one stays valid), records `user.password_changed` in each of its projects, and answers `{ changed: true }`.",
          body: ChangePasswordBody,
          response: {
            200: Envelope(PasswordChanged),
            ...errors(
              400,
              401,
              invalidCredentials(),
              rateLimited(900, 'Too many failed sign-in attempts. Try again later.'),
            ),
          },
        },
      },
      async (request) => ({
        data: await auth.changePassword(request.auth.session!, request.body, request.ip),
        error: null,
      }),
    );

    app.post(
      '/set-password',
      {
        config: { access: access.anyone },
        schema: {
          tags,
          operationId: 'setPassword',
          summary: 'Set a password with a set-password link',
          description:
            "No credential: the link's `token` (from `POST /v1/users` without a password, or `POST /v1/users/:id/password-reset`) is the proof. Sets the account's password, ends every session of the account, consumes the token, and answers as login does (a new session). A token used before, expired (72 hours) or unknown is 401 `unauthorized`; a token whose issuer no longer administers every project of the account is 403. A link is not voided because its account was invited to, or joined, another project since (contract §23). Rate limited as sign-in is: each refusal counts as a failed attempt of the client address (10 in 15 minutes for this route, 100 of every kind), then 429 with Retry-After.",
          body: SetPasswordBody,
          response: {
            200: Envelope(LoginResponse),
            ...errors(
              400,
              unauthorized(
                'This set-password link is unknown, already used or expired. Ask an admin for a new one.',
              ),
              forbidden(`${NOT_EVERY_PROJECT} Whoever issued this one no longer does: ask for a new link.`),
              rateLimited(900, 'Too many failed sign-in attempts. Try again later.'),
            ),
          },
        },
      },
      async (request) => ({ data: await auth.setPassword(request.body, request.ip), error: null }),
    );

    app.post(
      '/logout',
      {
        config: { access: access.signedIn },
        schema: {
          tags,
          operationId: 'logout',
          summary: 'End the presented session',
          response: { 200: Envelope(LogoutResponse), ...errors(401) },
        },
      },
      async (request) => {
        await auth.logout(request.auth.session!);
        return { data: { loggedOut: true as const }, error: null };
      },
    );

    app.get(
      '/me',
      {
        config: { access: access.signedIn },
        schema: {
          tags,
          operationId: 'getMe',
          summary: 'The signed-in account and its projects',
          response: { 200: Envelope(Me), ...errors(401) },
        },
      },
      async (request) => ({ data: await auth.me(request.auth.session!.accountId), error: null }),
    );

    app.post(
      '/refresh',
      {
        config: { access: access.signedIn },
        schema: {
          tags,
          operationId: 'refreshSession',
          summary: 'Rotate the session token',
          description:
            'Returns a new token with a fresh lifetime; the presented token stops working at once.',
          response: { 200: Envelope(Session), ...errors(401) },
        },
      },
      async (request) => ({ data: await auth.refresh(request.auth.session!), error: null }),
    );
  };
