import type { ErrorCode } from '@folio/client';

/**
 * What a command may touch of the outside world, handed in rather than read from `process`: the bin
 * passes the real ones, tests pass their own and read what was printed. Nothing runs at import.
 */
export interface Io {
  /** Results: what a script would capture (`FOLIO_KEY=…` lines, a version). */
  out(text: string): void;
  /** Progress, warnings and errors. */
  err(text: string): void;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /**
   * Asks a yes/no question on the terminal and resolves true for "y"/"yes". Absent when no person can
   * answer (stdin or stderr is not a terminal: a script, CI, a pipe), so a command that would remove
   * something refuses instead of going ahead unseen.
   */
  ask?(question: string): Promise<boolean>;
}

/** A command used wrongly (a missing option, a file that is not JSON): exit code 2, with a hint. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/**
 * Folio answered with its error envelope: the API's `code` and status are kept so the message names
 * them (`unauthorized`, HTTP 401). `status` 0 with code `network`: no answer at all.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: ErrorCode | 'network',
    readonly status: number,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** Anything else that stops a command (a project that is not empty, a bad export directory): exit 1. */
export class CommandError extends Error {
  override readonly name = 'CommandError';
}
