import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * Route schemas compiled on first use instead of at start (issue 13 #2).
 *
 * Fastify compiles every route's validators (Ajv) and response serialisers (fast-json-stringify)
 * while it becomes ready: a CPU profile of the start showed those two at two thirds of the time to
 * the first 200 and most of the memory the compiled code keeps, for ~80 routes of which a process
 * usually serves a handful (a site's server reads pages; an editor's session the rest). Here each
 * compiler hands Fastify a small function that compiles on its first call and then calls the result:
 * one extra call per request on the hot path, nothing measurable.
 *
 * What changes: a schema that does not compile fails its route's first request (a 500) rather than
 * the start. `compileAll()` compiles every schema registered so far, so a test can keep the start's
 * guarantee for the whole API (test/http/schemas-compile.test.ts).
 * Rejected: compiling in the background after listen — it keeps the memory this saves.
 */
export interface LazySchemas {
  /** Compiles every schema handed out so far; throws the first compile error, naming its route. */
  compileAll(): void;
}

interface Validator {
  (data: unknown, context?: unknown): unknown;
  errors?: unknown;
  /** Fastify passes the parent object to validators that have it, so Ajv may coerce a root value. */
  schemaEnv?: unknown;
}

type Compile<F> = () => F;

export function createLazySchemas(): LazySchemas & {
  validator<F extends Validator>(route: string, compile: Compile<F>): Validator;
  serializer<F extends (data: unknown) => string>(
    route: string,
    compile: Compile<F>,
  ): (data: unknown) => string;
} {
  const pending = new Map<() => void, string>();
  const once = <F>(route: string, compile: Compile<F>) => {
    let compiled: F | undefined;
    const get = (): F => {
      if (compiled === undefined) {
        compiled = compile();
        pending.delete(get);
      }
      return compiled;
    };
    pending.set(get, route);
    return get;
  };
  return {
    validator(route, compile) {
      const get = once(route, compile);
      const validate: Validator = (data, context) => {
        const fn = get();
        const valid = fn(data, context);
        validate.errors = fn.errors;
        return valid;
      };
      // Always present (Ajv's functions all have it), so Fastify always passes the parent context.
      validate.schemaEnv = true;
      return validate;
    },
    serializer(route, compile) {
      const get = once(route, compile);
      return (data) => get()(data);
    },
    compileAll() {
      for (const [get, route] of [...pending]) {
        try {
          get();
        } catch (err) {
          throw new Error(`${route}: ${(err as Error).message}`);
        }
      }
    },
  };
}

/** Fastify's validator compiler, deferred. */
export function lazyValidatorCompiler(
  lazy: ReturnType<typeof createLazySchemas>,
  compile: FastifySchemaCompiler<unknown>,
): FastifySchemaCompiler<unknown> {
  return (route) =>
    lazy.validator(
      `${route.method} ${route.url} ${route.httpPart}`,
      () => compile(route) as Validator,
    ) as never;
}

/**
 * Fastify's default serialiser factory (fast-json-stringify, as Fastify itself uses it), deferred;
 * for the `schemaController.compilersFactory.buildSerializer` option.
 */
export function lazySerializerFactory(lazy: ReturnType<typeof createLazySchemas>) {
  const build = SerializerSelector();
  return (externalSchemas?: unknown, options?: Parameters<typeof build>[1]) => {
    const compile = build(externalSchemas, options);
    return (route: Parameters<typeof compile>[0]) =>
      lazy.serializer(`${route.method} ${route.url} ${route.httpStatus}`, () => compile(route));
  };
}
