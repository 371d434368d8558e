import { ApiError, CommandError, UsageError } from './io.js';

/**
 * How a failure reads on the terminal: the sentence, then the API's code and status, so a script
 * and a person see the same closed list the API documents (`unauthorized, HTTP 401`); a validation
 * failure lists each path and why.
 */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    const head =
      error.code === 'network' ? error.message : `${error.message} (${error.code}, HTTP ${error.status})`;
    return head + detailLines(error);
  }
  if (error instanceof UsageError || error instanceof CommandError) return error.message;
  return (error as Error)?.stack ?? String(error);
}

function detailLines(error: ApiError): string {
  const { details } = error;
  if (Array.isArray(details)) {
    // A value that fits none of a union's members is reported once per member: each line once.
    const lines = details.map((d) =>
      d && typeof d === 'object' && 'path' in d && 'message' in d
        ? `\n  ${String(d.path)}: ${String(d.message)}`
        : `\n  ${JSON.stringify(d)}`,
    );
    return [...new Set(lines)].join('');
  }
  if (error.code === 'rate_limited' && details && typeof details === 'object') {
    const seconds = (details as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    if (typeof seconds === 'number') return `\n  try again in ${seconds} s`;
  }
  if (error.code === 'unauthorized') {
    return '\n  check the credential (a rotated key or an expired session is refused)';
  }
  return '';
}

/** "1 page", "2 pages". */
export const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
