import { ERROR_CODES } from '../../src/shared/errors.js';

const codes = new Set<string>(ERROR_CODES);

/**
 * Why a /v1 error answer is not the contract's envelope `{ data: null, error: { code, message } }`
 * with a code from the closed union, or null when it is.
 */
export function envelopeProblem(body: string, contentType: string | undefined): string | null {
  if (!contentType?.startsWith('application/json')) return `content-type ${contentType ?? '(none)'}`;
  let parsed: any;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'body is not JSON';
  }
  if (parsed?.data !== null) return 'data is not null';
  const error = parsed.error;
  if (!error || typeof error !== 'object') return 'no error object';
  if (!codes.has(error.code)) return `code ${JSON.stringify(error.code)} is not in the contract`;
  if (typeof error.message !== 'string' || !error.message) return 'no message';
  return null;
}
