import type { ErrorCode } from '@folio/client';

/**
 * Every failure the SDK reports is a FolioError. `code` is the API's own (`unauthorized`,
 * `rate_limited`, … from the error envelope), so a site branches on the same closed list the API
 * documents; two codes are the SDK's: `timeout` (no complete answer within `timeoutMs`) and
 * `network` (no answer at all). Those carry `status: 0` and the underlying error as `cause`.
 */
export type FolioErrorCode = ErrorCode | 'timeout' | 'network';

export class FolioError extends Error {
  override readonly name = 'FolioError';
  readonly code: FolioErrorCode;
  /** The HTTP status, or 0 when no answer came. */
  readonly status: number;
  readonly details: unknown;
  /** Seconds the server asked to wait (429, 503), when it said. */
  readonly retryAfter: number | undefined;

  constructor(
    code: FolioErrorCode,
    status: number,
    message: string,
    extra: { details?: unknown; retryAfter?: number; cause?: unknown } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.code = code;
    this.status = status;
    this.details = extra.details;
    this.retryAfter = extra.retryAfter;
  }
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

/** The FolioError of a failed client result (the envelope's `error`). */
export function apiError(result: { status: number; error: ErrorBody; response: Response }): FolioError {
  const { error, status, response } = result;
  return new FolioError(error.code, status, error.message, {
    details: error.details,
    retryAfter: retryAfterOf(response, error.details),
  });
}

/**
 * Seconds from `Retry-After` (delta seconds or an HTTP date). Browsers on another origin cannot read
 * that header (the API does not expose it), so `details.retryAfterSeconds` of a 429 envelope is the
 * fallback.
 */
export function retryAfterOf(response: Response, details?: unknown): number | undefined {
  const header = response.headers.get('retry-after');
  if (header) {
    const seconds = /^\d+$/.test(header.trim()) ? Number(header) : (Date.parse(header) - Date.now()) / 1000;
    if (Number.isFinite(seconds)) return Math.max(0, seconds);
  }
  const fromBody = (details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  return typeof fromBody === 'number' ? fromBody : undefined;
}

/** A rejected fetch as a FolioError; the caller's own abort is passed through unchanged. */
export function transportError(error: unknown): unknown {
  const name = (error as { name?: string } | null)?.name;
  if (error instanceof FolioError || name === 'AbortError') return error;
  return name === 'TimeoutError'
    ? new FolioError('timeout', 0, 'Folio did not answer in time.', { cause: error })
    : new FolioError('network', 0, 'Folio could not be reached.', { cause: error });
}
