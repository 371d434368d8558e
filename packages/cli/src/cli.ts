import { parseArgs } from 'node:util';
import type { Command } from './command.js';
import { bake } from './commands/bake.js';
import { createProject, login } from './commands/create-project.js';
import { exportProject } from './commands/export.js';
import { importProject } from './commands/import.js';
import { migrate } from './commands/migrate.js';
import { push } from './commands/push.js';
import { type Io, UsageError } from './io.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS, connectionOf, URL_HELP } from './options.js';
import { describeError } from './report.js';

/**
 * @folio/cli: `run(argv, io)` is the whole `folio` command (bin.ts hands it process.argv and the
 * process's streams); tests call it with their own `io`. Exit codes: 0 done, 1 failed (Folio refused,
 * or a check failed: the reason is printed with the API's code), 2 used wrongly.
 */
export type { Io } from './io.js';

export const VERSION = '0.1.0';

export const COMMANDS: readonly Command[] = [
  bake,
  push,
  exportProject,
  importProject,
  createProject,
  login,
  migrate,
];

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `Usage: folio <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

"folio <command> --help" tells more. Credentials come from flags or the environment:
FOLIO_URL, FOLIO_KEY, FOLIO_SECRET_KEY, FOLIO_TOKEN, FOLIO_PROJECT.
`;
}

function commandHelp(command: Command): string {
  const connection =
    command.connection === 'all'
      ? `\n\n${CONNECTION_HELP}`
      : command.connection === 'url'
        ? `\n\nConnection:\n${URL_HELP}`
        : '';
  return `${command.help}${connection}\n  -h, --help           this help\n`;
}

export async function run(argv: readonly string[], io: Io): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? COMMANDS.find((c) => c.name === args[0]) : undefined;
    io.out(topic ? commandHelp(topic) : mainHelp());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.out(`${VERSION}\n`);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(`folio: unknown command "${name}"\n\n${mainHelp()}`);
    return 2;
  }
  try {
    const options = {
      ...command.options,
      ...(command.connection === 'all' ? CONNECTION_OPTIONS : {}),
      ...(command.connection === 'url' ? { url: CONNECTION_OPTIONS.url } : {}),
      help: { type: 'boolean', short: 'h' },
    } as const;
    let parsed: ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>;
    try {
      parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const values = parsed.values as Record<string, string | boolean | undefined>;
    if (values.help) {
      io.out(commandHelp(command));
      return 0;
    }
    const { min, max } = command.positionals;
    if (parsed.positionals.length < min || parsed.positionals.length > max) {
      throw new UsageError(
        parsed.positionals.length < min
          ? 'missing argument'
          : `unexpected argument "${parsed.positionals[max]}"`,
      );
    }
    return await command.run({
      values,
      positionals: parsed.positionals,
      io,
      connection: connectionOf(values, io.env),
    });
  } catch (error) {
    io.err(`folio ${name}: ${describeError(error)}\n`);
    if (error instanceof UsageError) {
      if (error.hint) io.err(`${error.hint}\n`);
      io.err(`Run "folio ${name} --help" for its usage.\n`);
      return 2;
    }
    return 1;
  }
}
