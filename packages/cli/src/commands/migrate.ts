import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Command } from '../command.js';
import { CommandError, type Io } from '../io.js';

/**
 * `folio migrate` runs the server's own migrator (server/src/cli/migrate.ts, the one start-up and the
 * tests use), never a copy: the CLI depends on @folio/client only, so the server is looked up where
 * Node would find it from here (a workspace, or installed beside the CLI) and its built entry is run
 * in a child process with this environment. Not found or not built: the message says what to do.
 */
export const migrate: Command = {
  name: 'migrate',
  summary: "run the server's database migrations (@folio/server's migrator)",
  help: `Usage: folio migrate [up|down]

Runs Folio's database migrations with the server's own migrator: "up" (the default) applies every
pending migration, "down" undoes the last one. It reads the server's environment: DATABASE_URL
(postgres://… for PostgreSQL, else the SQLite file cms.sqlite in CMS_DATA_DIR, default ./data).
Safe to run on every deploy, before the new version starts; the server also migrates at start.

Needs @folio/server installed (and built) where this CLI can find it, as in Folio's repository.`,
  options: {},
  connection: 'none',
  positionals: { min: 0, max: 1 },

  async run({ positionals, io }) {
    const direction = positionals[0] ?? 'up';
    if (direction !== 'up' && direction !== 'down') {
      throw new CommandError(`migrate takes "up" or "down", not "${direction}"`);
    }
    return runChild(serverMigrator(io), [direction], io);
  },
};

function serverMigrator(io: Io): string {
  const found =
    resolveFrom(createRequire(join(io.cwd, 'package.json'))) ?? resolveFrom(createRequire(import.meta.url));
  if (!found) {
    throw new CommandError(
      'folio migrate runs the migrations of @folio/server, which is not installed here. Install it beside the CLI (npm install @folio/server), or run "npm run migrate" where the server is (in Folio\'s repository: at its root).',
    );
  }
  const root = dirname(found);
  const entry = join(root, 'dist', 'cli', 'migrate.js');
  if (!existsSync(entry)) {
    throw new CommandError(
      `@folio/server at ${root} is not built (no dist/cli/migrate.js): run "npm run build -w @folio/server" first.`,
    );
  }
  return entry;
}

/** Its package.json, from the caller's directory first, then from the CLI's own place. */
function resolveFrom(require: NodeJS.Require): string | undefined {
  try {
    return require.resolve('@folio/server/package.json');
  } catch {
    return undefined;
  }
}

function runChild(entry: string, args: string[], io: Io): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args], {
      cwd: io.cwd,
      env: io.env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.setEncoding('utf8').on('data', (text: string) => io.out(text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => io.err(text));
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
}
