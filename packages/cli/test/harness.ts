import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFolioClient, type FolioClient } from '@folio/client';
import { run } from '../src/cli.js';

/**
 * The CLI's tests drive `run(argv, io)` in this process, as the bin does with the real process, against
 * a real Folio (the SDK's harness: the server's own app on a fresh SQLite or PostgreSQL database). One
 * test spawns the built bin itself (bin.test.ts).
 */
export {
  type DbKind,
  dbKinds,
  ok,
  type RunningFolio,
  startFolio,
} from '../../sdk/test/harness/folio.js';

export interface Outcome {
  code: number;
  out: string;
  err: string;
}

/** Runs `folio …args` with exactly `env` as its environment (nothing of this process's leaks in). */
export async function folio(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; answer?: boolean } = {},
): Promise<Outcome> {
  let out = '';
  let err = '';
  const code = await run(args, {
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
    env: options.env ?? {},
    cwd: options.cwd ?? tmpdir(),
    // `answer`: a person at a terminal who answers so; without it, no terminal (as in a script).
    ...(options.answer === undefined
      ? {}
      : {
          ask: async (question: string) => {
            err += `${question} [y/N]\n`;
            return options.answer!;
          },
        }),
  });
  return { code, out, err };
}

/** A temporary directory, removed by the returned function. */
export function scratch(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'folio-cli-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `KEY=value` lines (what create-project and login print) as an object. */
export function envLines(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Z_]+)=(.*)$/.exec(line);
    if (match) env[match[1]!] = match[2]!;
  }
  return env;
}

export interface Project {
  /** FOLIO_URL, FOLIO_PROJECT, FOLIO_KEY, FOLIO_TOKEN as create-project printed them. */
  env: Record<string, string>;
  id: string;
  key: string;
  token: string;
  email: string;
  password: string;
  /** The admin's session with the project's key (the content routes). */
  admin: FolioClient;
  /** The admin's session naming the project, without the key (with it, objects' drafts are refused). */
  member: FolioClient;
}

let projects = 0;

/** A new project made by `folio create-project`, as a person would. */
export async function newProject(url: string, name = `Site ${++projects}`): Promise<Project> {
  const email = `admin-${process.pid}-${++projects}@example.com`;
  const password = 'correct horse battery staple';
  const created = await folio(['create-project', '--name', name, '--email', email], {
    env: { FOLIO_URL: url, FOLIO_PASSWORD: password },
  });
  if (created.code !== 0) throw new Error(`create-project failed: ${created.err}`);
  const env = envLines(created.out);
  const admin = createFolioClient({
    baseUrl: url,
    credentials: { session: env.FOLIO_TOKEN, publishableKey: env.FOLIO_KEY },
  });
  const member = createFolioClient({
    baseUrl: url,
    credentials: { session: env.FOLIO_TOKEN, projectId: env.FOLIO_PROJECT },
  });
  return {
    env,
    member,
    id: env.FOLIO_PROJECT!,
    key: env.FOLIO_KEY!,
    token: env.FOLIO_TOKEN!,
    email,
    password,
    admin,
  };
}

/** An address nothing listens on (a port that was just free). */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}
