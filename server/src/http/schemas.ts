import Type, { type TSchema } from 'typebox';
import type { AppError } from '../shared/errors.js';

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

/** Where errors() leaves a response's example errors for the document (a symbol: never serialised). */
export const ERROR_EXAMPLES = Symbol('errorExamples');

/**
 * The error statuses a route can answer, for its response schemas and the OpenAPI document. Pass the
 * status, or the AppError the route really throws (`notFound('Entry')`): the document then shows that
 * error as the example for its status. The codes each status can carry on this route, the statuses every
 * route shares (401/403 from its access rule, 400/413/415 from a JSON body, 500, 503) and the generic
 * examples are worked out in one place, src/http/openapi-errors.ts.
 */
export function errors(...specs: (number | AppError)[]): Record<number, TSchema> {
  const byStatus = new Map<number, AppError[]>();
  for (const spec of specs) {
    const status = typeof spec === 'number' ? spec : spec.statusCode;
    const list = byStatus.get(status) ?? [];
    if (typeof spec !== 'number') list.push(spec);
    byStatus.set(status, list);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, examples]) => [status, { ...ErrorEnvelope, [ERROR_EXAMPLES]: examples }]),
  );
}

export const Timestamp = Type.String({ format: 'date-time', examples: ['2026-11-21T09:30:00.000Z'] });

export const Deleted = Envelope(
  Type.Object(
    { id: Type.String(), deleted: Type.Literal(true) },
    { title: 'Deleted', examples: [{ id: 'usr_01JD3ZK4Q7M2X8V5B6N9C0R1T2', deleted: true }] },
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

/** One thing that stops a publish (contract §13): the `details` items of `422 unpublishable`. */
export const PublishProblem = Type.Object(
  {
    entryId: Type.String(),
    locale: Type.Union([Type.String(), Type.Null()], { description: 'null in a project without locales.' }),
    path: Type.String({ description: 'Where in the entry, e.g. `fields.features[2].title`.' }),
    message: Type.String(),
  },
  {
    title: 'PublishProblem',
    examples: [
      {
        entryId: 'ent_01JD3ZK4Q7M2X8V5B6N9C0R1T2',
        locale: null,
        path: 'fields.headline',
        message: 'is required',
      },
    ],
  },
);

/** A problem as an editor read shows it on its entry (`problems`, contract §13). */
export const EntryProblem = Type.Object(
  {
    locale: Type.Union([Type.String(), Type.Null()]),
    path: Type.String(),
    message: Type.String(),
  },
  { title: 'EntryProblem', examples: [{ locale: null, path: 'fields.headline', message: 'is required' }] },
);
