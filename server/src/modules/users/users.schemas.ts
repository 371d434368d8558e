import Type from 'typebox';
import { Email, Password, RoleSchema, Strict, Timestamp } from '../../http/schemas.js';

const example = {
  id: 'usr_01JD3ZK4Q7M2X8V5B6N9C0R1T2',
  email: 'grace@example.com',
  name: 'Grace Hopper',
  role: 'editor',
  createdAt: '2026-11-21T09:30:00.000Z',
};

export const User = Type.Object(
  {
    id: Type.String({ examples: [example.id] }),
    email: Type.String(),
    name: Type.String(),
    role: RoleSchema,
    createdAt: Timestamp,
  },
  { title: 'User', examples: [example] },
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
      'An email that already has an account is added to the project; its password is left as it is. Without `password`, a new account is created without one and the answer carries a set-password link to hand over.',
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

export const CreatedUser = Type.Object(
  {
    ...User.properties,
    setPasswordToken: Type.Optional(linkProperties.setPasswordToken),
    setPasswordExpiresAt: Type.Optional(linkProperties.setPasswordExpiresAt),
  },
  {
    title: 'CreatedUser',
    description:
      'The member; with `setPasswordToken` and `setPasswordExpiresAt` only when a new account was created without a password.',
    examples: [{ ...example, ...linkExample }],
  },
);

export const UpdateUserBody = Strict(
  { name: Type.Optional(Type.String({ maxLength: 200 })), role: Type.Optional(RoleSchema) },
  { title: 'UpdateUserBody', minProperties: 1, examples: [{ role: 'admin' }] },
);

export { example as userExample };
