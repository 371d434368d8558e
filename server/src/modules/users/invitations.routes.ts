import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access } from '../../http/access.js';
import { Envelope, errors } from '../../http/schemas.js';
import { forbidden, rateLimited } from '../../shared/errors.js';
import { type InvitationsService, OTHER_ACCOUNT } from './invitations.service.js';
import { AcceptedInvitation, AcceptInvitationBody } from './users.schemas.js';

const tags = ['Users'];

export const invitationsRoutes =
  (invitations: InvitationsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/accept',
      {
        config: { access: access.signedIn },
        schema: {
          tags,
          operationId: 'acceptInvitation',
          summary: 'Accept an invitation to a project',
          description:
            'A session of the invited account sends the `invitationToken` an admin handed over (from POST /v1/users for an email that already had an account): the pending invitation becomes a membership with its role, the token is consumed, and the answer names the project. A token that is unknown, used, canceled or expired (72 hours) is 401 `unauthorized` ("This invitation is unknown, already used, canceled or expired. …"); a token that invites another account is 403 (the invitation stays, for its own account). Rate limited as sign-in is: each refusal counts as a failed attempt of the client address (10 in 15 minutes for this route, 100 of every kind), then 429 with Retry-After. Activity: `user.invitation_accepted`, the account as actor.',
          body: AcceptInvitationBody,
          response: {
            200: Envelope(AcceptedInvitation),
            // The 401 example stays the missing session's; a refused token is the same status and code.
            ...errors(
              400,
              401,
              forbidden(OTHER_ACCOUNT),
              rateLimited(900, 'Too many failed sign-in attempts. Try again later.'),
            ),
          },
        },
      },
      async (request) => ({
        data: await invitations.accept(request.auth.session!, request.body.token, request.ip),
        error: null,
      }),
    );
  };
