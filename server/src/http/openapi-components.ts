/**
 * Named schemas. A schema declared with a `title` (`Type.Object({...}, { title: 'Entry' })`) is a named
 * type of the API: in the document it becomes `#/components/schemas/Entry` and every place it is used
 * refers to it, so a generator gives it that name. The route schemas stay inline for validation and
 * serialisation (one source, no $ref plumbing in Ajv); only the document is rewritten. Two different
 * schemas with one title are a mistake, reported when the document is built.
 *
 * A route schema may validate loosely and be documented strictly: `x-documented-as: <schema>` on a node
 * puts that schema in its place in the document (field declarations: the service checks them with a
 * path per problem, the document shows the union by `type`). Ajv and fast-json-stringify ignore the
 * keyword.
 *
 * Rejected: `$id` plus `app.addSchema` and `Type.Ref`, which would give the names to Ajv and
 * fast-json-stringify as well, but loses the static types the TypeBox provider infers for handlers.
 */

import { CONDITIONAL_HEADERS, REQUEST_ID, RETRY_AFTER, siteKeyParameters } from './openapi-operation.js';

type Json = unknown;
type Schemas = Record<string, Json>;

export const DOCUMENTED_AS = 'x-documented-as';
const SCHEMA_KEYS = ['type', 'anyOf', 'allOf', 'oneOf', 'enum', 'const', 'properties', '$ref'];
/** Values, not schemas: never looked into (an example entry may well have a `title` field). */
const DATA_KEYS = new Set(['examples', 'example', 'default', 'const', 'enum', 'value']);

export function hoistNamedSchemas(document: Record<string, unknown>): Record<string, unknown> {
  const components = (document.components ?? {}) as { schemas?: Schemas };
  const named: Schemas = { ...(components.schemas ?? {}) };

  const visit = (node: Json, key?: string): Json => {
    if (Array.isArray(node)) return node.map((n) => visit(n));
    if (!node || typeof node !== 'object') return node;
    const object = node as Record<string, Json>;
    if (DOCUMENTED_AS in object) return visit(object[DOCUMENTED_AS], key);
    const copy: Record<string, Json> = {};
    // Inside `properties` every value is a schema, whatever its name (a property called `default`).
    for (const [k, v] of Object.entries(object))
      copy[k] = DATA_KEYS.has(k) && key !== 'properties' ? v : visit(v, k);
    const title = copy.title;
    if (key !== 'properties' && typeof title === 'string' && SCHEMA_KEYS.some((k) => k in copy)) {
      register(named, title, copy);
      return { $ref: `#/components/schemas/${title}` };
    }
    return copy;
  };

  const paths = visit(document.paths) as Record<string, Record<string, Operation>>;
  return {
    ...document,
    paths: siteKeyParameters(shareHeaders(paths)),
    components: { ...components, schemas: named, headers: SHARED_HEADERS },
  };
}

type Operation = { responses?: Record<string, { headers?: Record<string, unknown> }> };

/** Response headers many operations send, written once in components.headers and referred to. */
const SHARED_HEADERS = Object.fromEntries(
  Object.entries({ ...REQUEST_ID, ...CONDITIONAL_HEADERS, ...RETRY_AFTER }).map(([name, header]) => {
    const { description, ...schema } = header as { description: string };
    return [name, { description, schema }];
  }),
);

function shareHeaders(paths: Record<string, Record<string, Operation>>) {
  for (const methods of Object.values(paths)) {
    for (const operation of Object.values(methods)) {
      for (const response of Object.values(operation.responses ?? {})) {
        for (const name of Object.keys(response.headers ?? {})) {
          if (name in SHARED_HEADERS) response.headers![name] = { $ref: `#/components/headers/${name}` };
        }
      }
    }
  }
  return paths;
}

/** The same title twice: the same schema, possibly with its examples moved out by the generator. */
function register(named: Schemas, title: string, schema: Record<string, Json>): void {
  const existing = named[title] as Record<string, Json> | undefined;
  if (!existing) {
    named[title] = schema;
    return;
  }
  const strip = ({ examples: _e, example: _x, ...rest }: Record<string, Json>) => JSON.stringify(rest);
  if (strip(existing) !== strip(schema)) {
    throw new Error(`Two different schemas are titled "${title}"; give each its own name.`);
  }
  if (!existing.examples && schema.examples) named[title] = schema;
}
