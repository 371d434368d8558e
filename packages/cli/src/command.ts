import type { Io } from './io.js';
import type { Connection, OptionSpec, Values } from './options.js';

/** One `folio <name>` command. The dispatcher (cli.ts) parses its options and prints its help. */
export interface Command {
  name: string;
  /** One line, for `folio --help`. */
  summary: string;
  /** Usage, what it does and its own options; the connection options are appended when `connection`. */
  help: string;
  options: OptionSpec;
  /** `all`: --url, --key, --secret-key, --token, --project (and their variables); `url`: --url only. */
  connection: 'all' | 'url' | 'none';
  /** How many positional arguments it takes. */
  positionals: { min: number; max: number };
  /** The exit code: 0 done, 1 failed (the reason was printed). */
  run(input: CommandInput): Promise<number>;
}

export interface CommandInput {
  values: Values;
  positionals: string[];
  io: Io;
  connection: Connection;
}
