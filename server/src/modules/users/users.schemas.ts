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
    password: Password,
  },
  {
    title: 'CreateUserBody',
    description:
      'An email that already has an account is added to the project; its password is left as it is.',
    examples: [
      { email: 'grace@example.com', name: 'Grace Hopper', role: 'editor', password: 'a long passphrase' },
    ],
  },
);

export const UpdateUserBody = Strict(
  { name: Type.Optional(Type.String({ maxLength: 200 })), role: Type.Optional(RoleSchema) },
  { title: 'UpdateUserBody', minProperties: 1, examples: [{ role: 'admin' }] },
);

export { example as userExample };
