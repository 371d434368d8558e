import { call, folioClient } from '../api.js';
import type { Command } from '../command.js';
import type { Io } from '../io.js';
import { required } from '../options.js';

const CREDENTIAL_OPTIONS = {
  email: { type: 'string' },
  password: { type: 'string' },
} as const;

const PASSWORD_HELP = `  --email EMAIL        the admin's email (FOLIO_EMAIL)
  --password PASSWORD  8 to 256 characters (FOLIO_PASSWORD; the variable keeps it out of the
                       shell's history and the process list)`;

export const createProject: Command = {
  name: 'create-project',
  summary: 'create a project and its admin (POST /v1/projects), then sign in',
  help: `Usage: folio create-project --name NAME --email EMAIL --password PASSWORD

Creates a project with its first admin (POST /v1/projects; an email that already has an account
adds the project to it when the password matches) and signs in. Prints, one per line, what the
other commands read from the environment:

  FOLIO_URL=…  FOLIO_PROJECT=prj_…  FOLIO_KEY=cms_pk_…  FOLIO_TOKEN=…

so "folio create-project … >> .env" keeps them. The token is a session (7 days by default).

Options:
  --name NAME          the project's name
${PASSWORD_HELP}`,
  options: { name: { type: 'string' }, ...CREDENTIAL_OPTIONS },
  connection: 'url',
  positionals: { min: 0, max: 0 },

  async run({ values, io, connection }) {
    const name = required(values, 'name');
    const { email, password } = credentialsOf(values, io);
    const anonymous = folioClient(connection.url);
    const created = await call(connection.url, 'create the project', () =>
      anonymous.POST('/v1/projects', { body: { name, admin: { email, password } } }),
    );
    const token = await signIn(connection.url, email, password);
    const { project } = created;
    io.err(`Created project "${project.name}" (${project.id}); ${email} is its admin.\n`);
    io.out(
      `FOLIO_URL=${connection.url}\nFOLIO_PROJECT=${project.id}\nFOLIO_KEY=${project.apiKey}\nFOLIO_TOKEN=${token}\n`,
    );
    return 0;
  },
};

export const login: Command = {
  name: 'login',
  summary: 'sign in and print a session token (POST /v1/auth/login)',
  help: `Usage: folio login --email EMAIL --password PASSWORD

Signs in and prints FOLIO_TOKEN=<session token> for the commands that need a member's session
(push, export, import): export it, or append it to a .env file.

Options:
${PASSWORD_HELP}`,
  options: { ...CREDENTIAL_OPTIONS },
  connection: 'url',
  positionals: { min: 0, max: 0 },

  async run({ values, io, connection }) {
    const { email, password } = credentialsOf(values, io);
    io.out(`FOLIO_TOKEN=${await signIn(connection.url, email, password)}\n`);
    return 0;
  },
};

function credentialsOf(values: Record<string, string | boolean | undefined>, io: Io) {
  return {
    email: required(values, 'email', { io, variable: 'FOLIO_EMAIL' }),
    password: required(values, 'password', { io, variable: 'FOLIO_PASSWORD' }),
  };
}

async function signIn(url: string, email: string, password: string): Promise<string> {
  const client = folioClient(url);
  const session = await call(url, 'sign in', () =>
    client.POST('/v1/auth/login', { body: { email, password } }),
  );
  return session.token;
}
