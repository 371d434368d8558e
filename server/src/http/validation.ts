import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { installInputTextRule } from './input-text.js';
import { type createLazySchemas, lazyValidatorCompiler } from './lazy-schemas.js';
import { withPlainIntegers } from './query-integers.js';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM interop.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * Two validators. Query strings and path parameters arrive as text, so they are coerced
 * ("50" -> 50), an integer only from plain digits (query-integers.ts). JSON bodies are not: `{"name": 42}` for a string is the caller's bug and gets a 400,
 * not a silent "42". Both report every failing path and reject unknown properties (no silent drop).
 * Before either, one rule for all text: no NUL, no unpaired surrogate, bounded nesting (input-text.ts).
 */
export function installValidation(
  app: FastifyInstance,
  lazy: ReturnType<typeof createLazySchemas>,
): { checkSchemas(): void } {
  // validateSchema: false — Ajv would otherwise check each schema against the JSON Schema
  // meta-schema before compiling it, and compile that meta-schema first: 45 ms on the first request
  // of every process (issue 13 #2). The schemas are code, not input: checkSchemas() runs the same
  // check over all of them, and the test suite calls it (app.compileAllSchemas()).
  const base = {
    allErrors: true,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
    validateSchema: false,
  } as const;
  const body = new Ajv({ ...base, coerceTypes: false });
  const text = new Ajv({ ...base, coerceTypes: 'array' });
  addFormats(body);
  addFormats(text);
  // Compiled on a route's first request (src/http/lazy-schemas.ts); each schema is kept for checkSchemas.
  // Integers in the URL are plain digits before Ajv coerces them (query-integers.ts).
  const compile = lazyValidatorCompiler(lazy, ({ schema, httpPart }) =>
    httpPart === 'body'
      ? body.compile(schema as object)
      : httpPart === 'querystring' || httpPart === 'params'
        ? withPlainIntegers(schema, text.compile(schema as object))
        : text.compile(schema as object),
  );
  const registered: { route: string; schema: object }[] = [];
  app.setValidatorCompiler((route) => {
    registered.push({
      route: `${route.method} ${route.url} ${route.httpPart}`,
      schema: route.schema as object,
    });
    return compile(route);
  });
  installInputTextRule(app);
  return {
    checkSchemas() {
      for (const { route, schema } of registered) {
        if (!body.validateSchema(schema)) throw new Error(`${route}: ${body.errorsText(body.errors)}`);
      }
    },
  };
}
