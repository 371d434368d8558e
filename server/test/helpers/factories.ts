import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';

export const PASSWORD = 'correct horse battery staple';

export const uniqueEmail = (label = 'user') => `${label}-${randomBytes(5).toString('hex')}@example.com`;

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** app.inject returning the parsed JSON body alongside the status and headers. */
export async function call(app: FastifyInstance, options: InjectOptions) {
  const res = await app.inject(options);
  let body: any = null;
  try {
    body = res.json();
  } catch {
    body = res.body;
  }
  return { status: res.statusCode, headers: res.headers, body };
}

export interface Member {
  id: string;
  email: string;
  password: string;
  token: string;
}

export async function login(app: FastifyInstance, email: string, password = PASSWORD): Promise<string> {
  const res = await call(app, { method: 'POST', url: '/v1/auth/login', payload: { email, password } });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.token;
}

/** A project with its first admin, signed in. */
export async function newProject(app: FastifyInstance, name = 'Test site') {
  const email = uniqueEmail('admin');
  const res = await call(app, {
    method: 'POST',
    url: '/v1/projects',
    payload: { name, admin: { email, password: PASSWORD } },
  });
  if (res.status !== 201)
    throw new Error(`project creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  const { project, admin } = res.body.data;
  const token = await login(app, email);
  return { project, admin: { id: admin.id, email, password: PASSWORD, token } as Member };
}

/** A new member of the project with `role`, signed in. */
export async function newMember(
  app: FastifyInstance,
  adminToken: string,
  projectId: string,
  role: 'admin' | 'editor' = 'editor',
): Promise<Member> {
  const email = uniqueEmail(role);
  const res = await call(app, {
    method: 'POST',
    url: '/v1/users',
    headers: { ...bearer(adminToken), 'x-cms-project-id': projectId },
    payload: { email, role, password: PASSWORD },
  });
  if (res.status !== 201) throw new Error(`user creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id, email, password: PASSWORD, token: await login(app, email) };
}

/**
 * Adds an existing account to a project as it joins now (contract §23): an admin invites its email,
 * and the account's own session accepts the invitation's token.
 */
export async function joinProject(
  app: FastifyInstance,
  adminToken: string,
  projectId: string,
  account: { email: string; token: string },
  role: 'admin' | 'editor' = 'editor',
): Promise<void> {
  const invited = await call(app, {
    method: 'POST',
    url: '/v1/users',
    headers: { ...bearer(adminToken), 'x-cms-project-id': projectId },
    payload: { email: account.email, role },
  });
  if (invited.status !== 201 || !invited.body.data.invitationToken)
    throw new Error(`invitation failed: ${invited.status} ${JSON.stringify(invited.body)}`);
  const accepted = await call(app, {
    method: 'POST',
    url: '/v1/invitations/accept',
    headers: bearer(account.token),
    payload: { token: invited.body.data.invitationToken },
  });
  if (accepted.status !== 200)
    throw new Error(`accept failed: ${accepted.status} ${JSON.stringify(accepted.body)}`);
}
