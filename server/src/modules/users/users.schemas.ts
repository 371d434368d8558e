import Type from 'typebox';
import { Email, Password, RoleSchema, Strict, Timestamp } from '../../http/schemas.js';

const example = {
  id: 'usr_01JD3ZK4Q7M2X8V5B6N9C0R1T2',
  email: 'grace@example.com',
  name: 'Grace Hopper',
  role: 'editor',
  status: 'active',
  createdAt: '2026-11-21T09:30:00.000Z',
};

const invitationExpiresAt = Type.String({
  format: 'date-time',
  description: '72 hours after the invitation was issued; past it, the token no longer works.',
});

export const User = Type.Object(
  {
    id: Type.String({ examples: [example.id] }),
    email: Type.String(),
    name: Type.String({
      description: "The account's name; '' for a pending invitation (shown once the account accepts).",
    }),
    role: RoleSchema,
    status: Type.Union([Type.Literal('active'), Type.Literal('invited')], {
      description:
        '`active`: a member. `invited`: an existing account invited and not yet accepted, which has no access to the project at all (contract §23).',
    }),
    invitationExpiresAt: Type.Optional(invitationExpiresAt),
    createdAt: Timestamp,
  },
  {
    title: 'User',
    description:
      'A member of the project, or (`status: "invited"`, with `invitationExpiresAt`) a pending invitation; `id` is the account id either way.',
    examples: [
      example,
      {
        ...example,
        name: '',
        status: 'invited',
        invitationExpiresAt: '2026-11-24T09:30:00.000Z',
      },
    ],
  },
);

export const UserParams = Strict({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const CreateUserBody = Strict(
  {
    email: Email,
    name: Type.Optional(Type.String({ maxLength: 200 })),
    role: RoleSchema,
    password: Type.Optional(Password),
  },
  {
    title: 'CreateUserBody',
    description:
      'A new email: its account is created and added to the project; without `password` it is created without one and the answer carries a set-password link to hand over. An email that already has an account is only invited (its password, and any `password` or `name` sent, are left alone): the answer carries an invitation token to hand over, which that account accepts.',
    examples: [
      { email: 'grace@example.com', name: 'Grace Hopper', role: 'editor' },
      { email: 'grace@example.com', name: 'Grace Hopper', role: 'editor', password: 'a long passphrase' },
    ],
  },
);

const linkExample = {
  setPasswordToken: 'cms_sp_kq3Xw9…43 characters…',
  setPasswordExpiresAt: '2026-11-24T09:30:00.000Z',
};

const linkProperties = {
  setPasswordToken: Type.String({
    description:
      "Shown once: hand it to the account's owner, who sends it to POST /v1/auth/set-password (the dashboard builds a link from it). Only its hash is stored.",
  }),
  setPasswordExpiresAt: Type.String({ format: 'date-time', description: '72 hours after it was issued.' }),
};

export const SetPasswordLink = Type.Object(linkProperties, {
  title: 'SetPasswordLink',
  examples: [linkExample],
});

const invitationExample = {
  invitationToken: 'cms_inv_Zp0Rk2…43 characters…',
  invitationExpiresAt: '2026-11-24T09:30:00.000Z',
};

export const CreatedUser = Type.Object(
  {
    ...User.properties,
    setPasswordToken: Type.Optional(linkProperties.setPasswordToken),
    setPasswordExpiresAt: Type.Optional(linkProperties.setPasswordExpiresAt),
    invitationToken: Type.Optional(
      Type.String({
        description:
          'Shown once: hand it to the invited person, who signs in with that account and sends it to POST /v1/invitations/accept (the dashboard builds a link from it). Only its hash is stored.',
      }),
    ),
  },
  {
    title: 'CreatedUser',
    description:
      'The member (`status: "active"`), with `setPasswordToken` and `setPasswordExpiresAt` when a new account was created without a password; or, for an email that already has an account, the pending invitation (`status: "invited"`) with `invitationToken` and `invitationExpiresAt`.',
    examples: [
      { ...example, ...linkExample },
      { ...example, name: '', status: 'invited', ...invitationExample },
    ],
  },
);

export const AcceptInvitationBody = Strict(
  {
    token: Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'The `invitationToken` an admin handed over (`cms_inv_…`).',
    }),
  },
  { title: 'AcceptInvitationBody', examples: [{ token: invitationExample.invitationToken }] },
);

export const AcceptedInvitation = Type.Object(
  { projectId: Type.String(), role: RoleSchema },
  {
    title: 'AcceptedInvitation',
    description: 'The project the account joined, and its role there.',
    examples: [{ projectId: 'prj_01JD3ZK4Q7M2X8V5B6N9C0R1T2', role: 'editor' }],
  },
);

export const UpdateUserBody = Strict(
  { name: Type.Optional(Type.String({ maxLength: 200 })), role: Type.Optional(RoleSchema) },
  { title: 'UpdateUserBody', minProperties: 1, examples: [{ role: 'admin' }] },
);

export { example as userExample };
