/**
 * Integers in a URL are plain (contract §23 "query numbers are plain"): `0`, or a digit 1-9 followed
 * by digits 0-9. No sign, space, leading zero, decimal point, exponent or hexadecimal: Ajv's type
 * coercion reads text with `+text`, so `?depth=03`, `1e0`, `0x1`, ` 1`, `+1` and `1.0` all passed as
 * numbers, one value with many spellings (a cache key a caller could vary at will) and inputs no
 * client sends. The rule is derived from the route schemas: every `integer` property of a querystring
 * (or path parameter) schema gets it, so a new parameter cannot forget it, and the OpenAPI document
 * keeps `type: integer` with its bounds for the generated clients (which send `String(n)`).
 * Rejected: a `pattern` on the schema (JSON Schema applies it to strings only, so after coercion it
 * never runs) and string-typed parameters (the document and the handlers would lose the integer).
 * The fast path (fast-reads.ts) takes no integer parameter: a query with one goes the normal way.
 */
const PLAIN_INTEGER = /^(?:0|[1-9][0-9]*)$/;

export const isPlainInteger = (text: string): boolean => PLAIN_INTEGER.test(text);

const MESSAGE =
  'must be a whole number written with the digits 0-9 (no sign, space, leading zero or exponent)';

type Schema = { type?: unknown; properties?: Record<string, Schema> };

/** The names of the schema's integer properties (an integer, or a type list that holds one). */
function integerNames(schema: Schema): string[] {
  return Object.entries(schema.properties ?? {})
    .filter(([, p]) => p.type === 'integer' || (Array.isArray(p.type) && p.type.includes('integer')))
    .map(([name]) => name);
}

interface Validator {
  (data: unknown, context?: unknown): unknown;
  errors?: unknown;
  schemaEnv?: unknown;
}

/**
 * Wraps the Ajv validator of a querystring or path parameter schema: before Ajv coerces anything, each
 * integer parameter present must be plain text (each value of a repeated one); otherwise the answer
 * is Ajv's shape of error, so the error handler names it like any other (`querystring.depth`).
 * A schema without integers gets its validator back untouched.
 */
export function withPlainIntegers<V extends (data: never) => unknown>(schema: unknown, compiled: V): V {
  const names = integerNames(schema as Schema);
  if (names.length === 0) return compiled;
  const validate = compiled as unknown as Validator;
  const wrapped: Validator = (data: unknown, context?: unknown) => {
    const values = data as Record<string, unknown> | null;
    for (const name of names) {
      const value = values && Object.hasOwn(values, name) ? values[name] : undefined;
      if (value === undefined) continue;
      const items = Array.isArray(value) ? value : [value];
      if (items.every((item) => typeof item === 'string' && isPlainInteger(item))) continue;
      wrapped.errors = [
        {
          keyword: 'type',
          instancePath: `/${name}`,
          schemaPath: `#/properties/${name}/type`,
          params: { type: 'integer' },
          message: MESSAGE,
        },
      ];
      return false;
    }
    const valid = validate(data, context);
    wrapped.errors = validate.errors;
    return valid;
  };
  // Fastify passes the parent context only to validators that carry schemaEnv (lazy-schemas.ts).
  wrapped.schemaEnv = validate.schemaEnv;
  return wrapped as unknown as V;
}
