import Type, { type TSchema } from 'typebox';

/** Shared schemas: the envelope, the error body, ids, timestamps and pagination (contract §1). */

export const ErrorBody = Type.Object({
  code: Type.String({ examples: ['validation_failed'] }),
  message: Type.String({ examples: ['The request body is not valid.'] }),
  details: Type.Optional(Type.Unknown()),
});

export const ErrorEnvelope = Type.Object(
  { data: Type.Null(), error: ErrorBody },
  {
    description: 'Failure envelope',
    examples: [{ data: null, error: { code: 'not_found', message: 'Project not found.' } }],
  },
);

/** The success envelope around `data`. */
export const Envelope = <T extends TSchema>(data: T) => Type.Object({ data, error: Type.Null() });

/** Cursor-paginated list: `data` stays an array; `meta.nextCursor` appears while more remain. */
export const PageEnvelope = <T extends TSchema>(item: T) =>
  Type.Object({
    data: Type.Array(item),
    error: Type.Null(),
    meta: Type.Optional(Type.Object({ nextCursor: Type.String() })),
  });

export const PageQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input (`invalid_json`, `validation_failed`, `project_required`)',
  401: 'Missing, unknown or expired credential (`unauthorized`)',
  403: 'Credential lacks the role, access level or site (`forbidden`)',
  404: 'Unknown resource, or one of another project (`not_found`)',
  409: 'Conflict (`conflict`)',
  412: 'The resource changed since the version named in `If-Match` (`precondition_failed`); `details.currentVersion`',
  413: 'Body over its limit (`payload_too_large`)',
  415: 'Unsupported media type (`unsupported_media_type`)',
  429: 'Rate limited (`rate_limited`); see `Retry-After`',
};

/** Response schemas for the error statuses a route can answer. */
export function errors(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(
    statuses.map((s) => [s, { ...ErrorEnvelope, description: ERROR_DESCRIPTIONS[s] ?? 'Error' }]),
  );
}

export const Timestamp = Type.String({ format: 'date-time', examples: ['2026-11-21T09:30:00.000Z'] });

export const Deleted = Envelope(
  Type.Object(
    { id: Type.String(), deleted: Type.Literal(true) },
    { examples: [{ id: 'usr_01JD…', deleted: true }] },
  ),
);

/** A strict object: unknown properties are a 400, not silently dropped. */
export const Strict = <T extends Record<string, TSchema>>(props: T, options: Record<string, unknown> = {}) =>
  Type.Object(props, { additionalProperties: false, ...options });

export const Email = Type.String({
  format: 'email',
  minLength: 3,
  maxLength: 254,
  examples: ['ada@example.com'],
});
export const Password = Type.String({ minLength: 8, maxLength: 256, examples: ['correct horse battery'] });
export const RoleSchema = Type.Union([Type.Literal('admin'), Type.Literal('editor')], {
  examples: ['editor'],
});
