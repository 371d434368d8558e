import Type from 'typebox';
import { Password, RoleSchema, Strict, Timestamp } from '../../http/schemas.js';

const meExample = {
  id: 'usr_01JD3ZK4Q7M2X8V5B6N9C0R1T3',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  projects: [{ id: 'prj_01JD3ZK4Q7M2X8V5B6N9C0R1T2', name: 'Marketing site', role: 'admin' }],
};
const sessionExample = { token: 'kq3Xw9…43 characters…', expiresAt: '2026-11-28T09:30:00.000Z' };

export const Me = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    name: Type.String(),
    projects: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), role: RoleSchema })),
  },
  { title: 'Me', examples: [meExample] },
);

export const LoginBody = Strict(
  {
    email: Type.String({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 256 }),
  },
  { title: 'LoginBody', examples: [{ email: 'ada@example.com', password: 'correct horse battery' }] },
);

export const Session = Type.Object(
  { token: Type.String({ description: 'Send as Authorization: Bearer <token>.' }), expiresAt: Timestamp },
  { title: 'Session', examples: [sessionExample] },
);

export const LoginResponse = Type.Object(
  { user: Me, token: Type.String(), expiresAt: Timestamp },
  { title: 'LoginResult', examples: [{ user: meExample, ...sessionExample }] },
);

export const LogoutResponse = Type.Object(
  { loggedOut: Type.Literal(true) },
  { title: 'LogoutResult', examples: [{ loggedOut: true }] },
);

export const ChangePasswordBody = Strict(
  {
    currentPassword: Type.String({ minLength: 1, maxLength: 256 }),
    newPassword: Password,
  },
  {
    title: 'ChangePasswordBody',
    examples: [{ currentPassword: 'correct horse battery', newPassword: 'a longer passphrase still' }],
  },
);

export const PasswordChanged = Type.Object(
  { changed: Type.Literal(true) },
  { title: 'PasswordChanged', examples: [{ changed: true }] },
);

export const SetPasswordBody = Strict(
  {
    token: Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'The `setPasswordToken` an admin handed over (`cms_sp_…`).',
    }),
    password: Password,
  },
  {
    title: 'SetPasswordBody',
    examples: [{ token: 'cms_sp_kq3Xw9…43 characters…', password: 'a long passphrase' }],
  },
);
