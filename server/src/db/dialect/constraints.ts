import { AppError, conflict } from '../../shared/errors.js';

export type ConstraintKind = 'unique' | 'foreignKey';

/** A unique (or primary-key) or foreign-key violation, in either dialect's words; null for anything else. */
export function constraintViolation(err: unknown): ConstraintKind | null {
  switch ((err as { code?: unknown } | null)?.code) {
    case '23505': // PostgreSQL unique_violation (primary keys included)
    case 'SQLITE_CONSTRAINT_UNIQUE':
    case 'SQLITE_CONSTRAINT_PRIMARYKEY':
      return 'unique';
    case '23503': // PostgreSQL foreign_key_violation
    case 'SQLITE_CONSTRAINT_FOREIGNKEY':
      return 'foreignKey';
    default:
      return null;
  }
}

/**
 * The one mapping of constraint violations to API errors, for both dialects: a unique violation is
 * a 409 (a concurrent request created the same thing first; checks before the insert catch the
 * ordinary case), a foreign-key violation a 404 (what the row refers to was deleted meanwhile).
 * Services pass the message that names the thing; the error handler maps the rest with the
 * defaults. Anything else is returned unchanged, to be rethrown.
 */
export function fromConstraint(
  err: unknown,
  messages: { unique?: string; foreignKey?: string } = {},
): unknown {
  switch (constraintViolation(err)) {
    case 'unique':
      return conflict(messages.unique ?? 'This conflicts with an existing resource.');
    case 'foreignKey':
      return new AppError(
        'not_found',
        404,
        messages.foreignKey ?? 'A resource this refers to no longer exists.',
      );
    default:
      return err;
  }
}
