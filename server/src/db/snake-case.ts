import {
  CamelCasePlugin,
  type PluginTransformQueryArgs,
  PostgresDialect,
  PostgresQueryCompiler,
  type QueryCompiler,
  type RootOperationNode,
  SqliteDialect,
  SqliteQueryCompiler,
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

  /** Identifiers are mapped by the dialect's compiler (compilerMapping below). */
  override transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  protected override snakeCase(name: string): string {
    return memo(this.#snake, name, () => super.snakeCase(name));
  }

  protected override camelCase(name: string): string {
    return memo(this.#camel, name, () => super.camelCase(name));
  }

  /** The identifier mapping, for the dialect's compiler. */
  readonly toSnakeCase = (name: string): string => this.snakeCase(name);
}

/** Names come from code and from column names, a finite set; the bound guards against surprises. */
const MEMO_MAX = 10_000;
function memo(map: Map<string, string>, key: string, make: () => string): string {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    if (map.size >= MEMO_MAX) map.clear();
    map.set(key, value);
  }
  return value;
}

class SnakeCasePostgresCompiler extends PostgresQueryCompiler {
  constructor(private readonly toSnakeCase: (name: string) => string) {
    super();
  }
  protected override sanitizeIdentifier(identifier: string): string {
    return super.sanitizeIdentifier(this.toSnakeCase(identifier));
  }
}

class SnakeCaseSqliteCompiler extends SqliteQueryCompiler {
  constructor(private readonly toSnakeCase: (name: string) => string) {
    super();
  }
  protected override sanitizeIdentifier(identifier: string): string {
    return super.sanitizeIdentifier(this.toSnakeCase(identifier));
  }
}

export class SnakeCasePostgresDialect extends PostgresDialect {
  constructor(
    config: ConstructorParameters<typeof PostgresDialect>[0],
    private readonly plugin: CamelCaseAtCompile,
  ) {
    super(config);
  }
  override createQueryCompiler(): QueryCompiler {
    return new SnakeCasePostgresCompiler(this.plugin.toSnakeCase);
  }
}

export class SnakeCaseSqliteDialect extends SqliteDialect {
  constructor(
    config: ConstructorParameters<typeof SqliteDialect>[0],
    private readonly plugin: CamelCaseAtCompile,
  ) {
    super(config);
  }
  override createQueryCompiler(): QueryCompiler {
    return new SnakeCaseSqliteCompiler(this.plugin.toSnakeCase);
  }
}
