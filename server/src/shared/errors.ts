/**
 * The one error type the service throws on purpose. Its `code` is a closed union (contract §1), so a
 * client can branch on it; the error handler turns it into the `{ data: null, error }` envelope. The
 * union is also a value, so tests can check every answer's code against it.
 */
export const ERROR_CODES = [
  'invalid_json',
  'validation_failed',
  'project_required',
  'unauthorized',
  'invalid_credentials',
  'forbidden',
  'not_found',
  'conflict',
  'precondition_failed',
  'payload_too_large',
  'unsupported_media_type',
  'unpublishable',
  'rate_limited',
  'internal_error',
  'unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly statusCode: number,
    message: string,
    readonly details?: unknown,
    /** Extra response headers, e.g. Retry-After on 429. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export interface FieldProblem {
  path: string;
  message: string;
}

export const validationFailed = (message: string, details?: FieldProblem[]) =>
  new AppError('validation_failed', 400, message, details);
export const projectRequired = (message: string) => new AppError('project_required', 400, message);
export const unauthorized = (message = 'Missing or invalid credentials.') =>
  new AppError('unauthorized', 401, message);
export const invalidCredentials = () => new AppError('invalid_credentials', 401, 'Wrong email or password.');
export const forbidden = (message = 'You do not have access to this resource.') =>
  new AppError('forbidden', 403, message);
export const notFound = (what = 'Resource') => new AppError('not_found', 404, `${what} not found.`);
export const conflict = (message: string) => new AppError('conflict', 409, message);
export const payloadTooLarge = (message: string) => new AppError('payload_too_large', 413, message);
export const unsupportedMediaType = (message: string) => new AppError('unsupported_media_type', 415, message);
export const rateLimited = (retryAfterSeconds: number, message = 'Too many attempts. Try again later.') =>
  new AppError(
    'rate_limited',
    429,
    message,
    { retryAfterSeconds },
    { 'retry-after': String(retryAfterSeconds) },
  );
/** Contract part two: `If-Match` names a version that is no longer current; nothing was written. */
export const preconditionFailed = (currentVersion: number) =>
  new AppError('precondition_failed', 412, 'This was changed since you loaded it.', { currentVersion });
/** What stops a publish (contract §13): a rule of the definition, at a path of one entry in one locale. */
export interface PublishProblem {
  entryId: string;
  locale: string | null;
  path: string;
  message: string;
}

/** Contract part three: content breaks rules of its definition; nothing was published (or written). */
export const unpublishable = (problems: PublishProblem[]) =>
  new AppError(
    'unpublishable',
    422,
    problems.length === 1
      ? `This content breaks a rule of its definition (${problems[0]?.path}: ${problems[0]?.message}); nothing was published.`
      : `This content breaks ${problems.length} rules of its definition; nothing was published.`,
    problems,
  );

/**
 * Contract §23: a sync whose patterns or defaults cannot be checked within the rules budget
 * (CMS_RULES_BUDGET_MS); `details`: every problem found, those not checked saying so. Nothing was
 * written. The one 422 code, as for content that breaks its rules: the defaults are content.
 */
export const rulesTooCostly = (budgetMs: number, problems: FieldProblem[]) =>
  new AppError(
    'unpublishable',
    422,
    `These declarations could not be checked within the rules budget (${budgetMs} ms, CMS_RULES_BUDGET_MS): use smaller patterns or shorter defaults. Nothing was written.`,
    problems,
  );

/** Contract part two: the database cannot be reached for this request; nothing was written. */
export const unavailable = (
  retryAfterSeconds = 1,
  message = 'The service is briefly unavailable. Try again.',
  details?: unknown,
) => new AppError('unavailable', 503, message, details, { 'retry-after': String(retryAfterSeconds) });
