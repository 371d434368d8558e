import {
  CamelCasePlugin,
  type DefaultQueryCompiler,
  type Dialect,
  type PluginTransformQueryArgs,
  type RootOperationNode,
} from 'kysely';

/**
 * Kysely's CamelCasePlugin (camelCase in TypeScript, snake_case in the database), with its
 * identifier mapping moved from a rewrite of every query's tree into the compiler.
 *
 * Why (issue 13): the plugin maps identifiers by copying the whole operation tree of each query
 * before it is compiled (a new frozen node for every node). In a CPU profile of the editor's publish
 * on PostgreSQL that copy was 13% of the server's time, more than compiling the query. The compiler
 * writes each identifier anyway: mapping it there, once per distinct name (memoised), gives the
 * same SQL for no copy. Results are still mapped back to camelCase by the plugin, its names memoised
 * too. The mapping itself is the plugin's own (`snakeCase`, `camelCase`), so the SQL is unchanged:
 * test/db/snake-case.test.ts compiles queries both ways and compares them.
 */
export class CamelCaseAtCompile extends CamelCasePlugin {
  readonly #snake = new Map<string, string>();
  readonly #camel = new Map<string, string>();

  /** Identifiers are mapped by the dialect's compiler (mappingIdentifiers below). */
  override transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  // Called per identifier compiled and per key of every result row: a map lookup, no allocation.
  protected override snakeCase(name: string): string {
    return this.#snake.get(name) ?? remember(this.#snake, name, super.snakeCase(name));
  }

  protected override camelCase(name: string): string {
    return this.#camel.get(name) ?? remember(this.#camel, name, super.camelCase(name));
  }

  /** The identifier mapping, for the dialect's compiler. */
  readonly toSnakeCase = (name: string): string => this.snakeCase(name);
}

/** Names come from code and from column names, a finite set; the bound guards against surprises. */
const MEMO_MAX = 10_000;
function remember(map: Map<string, string>, key: string, value: string): string {
  if (map.size >= MEMO_MAX) map.clear();
  map.set(key, value);
  return value;
}

/**
 * `dialect` with its own query compiler made to map every identifier through the plugin, and
 * everything else (driver, adapter, introspector) its own. One wrapper for both dialects: the
 * compiler class is the dialect's, extended by one method.
 */
export function mappingIdentifiers(dialect: Dialect, plugin: CamelCaseAtCompile): Dialect {
  const Base = dialect.createQueryCompiler().constructor as new () => DefaultQueryCompiler;
  class SnakeCaseCompiler extends Base {
    protected override sanitizeIdentifier(identifier: string): string {
      return super.sanitizeIdentifier(plugin.toSnakeCase(identifier));
    }
  }
  return {
    createDriver: () => dialect.createDriver(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => new SnakeCaseCompiler(),
  };
}
