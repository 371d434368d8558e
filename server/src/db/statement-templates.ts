import { CompiledQuery, type Kysely, type RawBuilder } from 'kysely';

/**
 * Statements compiled once per shape and bound to new values on every call (issue 13).
 *
 * Why: the editor's optimistic PATCH (content.service.ts) is one statement of about forty values,
 * and building and compiling it with Kysely's builders cost ~140 µs of the server's ~525 µs of CPU
 * per write, more than anything else it does. Its SQL depends only on its shape (which columns, how
 * many rows, roles, notifications), never on the values.
 *
 * How: `values` is a tree (plain objects and arrays) holding every value the statement binds. The
 * statement is built once per shape by `build` from a copy of the tree whose leaves are markers
 * (numbered strings starting with a NUL character, which no constant in code holds), and compiled;
 * each marker that comes out as a parameter is where that leaf's value goes. The shape's
 * key is `shape` (what else `build` decides on: tables, modes) and every leaf's path, so two trees
 * with the same key always build the same SQL. `undefined` leaves are kept as they are (Kysely
 * leaves out an undefined column), as part of the key.
 *
 * What keeps it honest, since a cached statement could go stale without anyone noticing:
 * - building refuses a marker that reaches the SQL text, or a parameter made from a marker (a value
 *   that `build` transformed, such as JSON.stringify of a leaf): such values must be leaves already;
 * - a parameter that is no marker is a constant of the shape (`version + 1`'s 1). The template is
 *   built twice with different markers and refused unless its constants and SQL agree, which
 *   catches a value `build` made itself (a new id);
 * - the first call of every shape is compared with a fresh build from the real values, and with
 *   FOLIO_VERIFY_TEMPLATES=1 (the test suite sets it) every call is: a `build` that decides
 *   anything on a value, or makes a value (a timestamp), fails there. A statement that differs is
 *   not used: the fresh one runs, and that shape is never cached.
 */
export interface StatementTemplates {
  compile<V>(shape: string, values: V, build: (values: V) => RawBuilder<unknown>): CompiledQuery;
}

/** Shapes kept per process: a bound guards against a caller whose shapes vary without end. */
const MAX_SHAPES = 500;
const MARK = '\u0000folio-slot:';

type Parameter = { slot: number } | { constant: unknown };
interface Template {
  sql: string;
  parameters: Parameter[];
  /** Compared with a fresh build once; until then (and always when verifying) not trusted alone. */
  checked: boolean;
}

/** A statement a template would not reproduce (see above); the caller's build is at fault. */
export class TemplateMismatch extends Error {}

const isTree = (value: unknown): value is Record<string, unknown> | unknown[] =>
  value !== null && typeof value === 'object' && (Array.isArray(value) || isPlainObject(value));

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The leaves of `value` in a fixed order, and the key of its shape (every leaf's path). */
function flatten(value: unknown): { leaves: unknown[]; key: string } {
  const leaves: unknown[] = [];
  let key = '';
  const walk = (node: unknown, path: string) => {
    if (isTree(node)) {
      key += Array.isArray(node) ? `${path}[${node.length}]` : `${path}{`;
      const entries = Array.isArray(node) ? node.entries() : Object.entries(node);
      for (const [k, child] of entries) walk(child, `${path}.${k}`);
      if (!Array.isArray(node)) key += '}';
      return;
    }
    if (node === undefined) key += `${path}=u;`;
    else {
      key += `${path};`;
      leaves.push(node);
    }
  };
  walk(value, '');
  return { leaves, key };
}

/** A copy of `value` whose leaves are markers numbered in flatten's order (undefined stays). */
function marked<V>(value: V, round: string): V {
  let n = 0;
  const copy = (node: unknown): unknown => {
    if (isTree(node)) {
      if (Array.isArray(node)) return node.map(copy);
      const out: Record<string, unknown> = {};
      for (const [k, child] of Object.entries(node)) out[k] = copy(child);
      return out;
    }
    return node === undefined ? undefined : `${MARK}${round}:${n++}`;
  };
  return copy(value) as V;
}

function templateOf(db: Kysely<any>, values: unknown, build: (values: any) => RawBuilder<unknown>): Template {
  const read = (round: string) => {
    const compiled = build(marked(values, round)).compile(db);
    if (compiled.sql.includes(MARK)) throw new TemplateMismatch('a templated value reached the SQL text');
    const prefix = `${MARK}${round}:`;
    const parameters = compiled.parameters.map((p): Parameter => {
      if (typeof p === 'string' && p.startsWith(prefix)) return { slot: Number(p.slice(prefix.length)) };
      if (typeof p === 'string' && p.includes(MARK))
        throw new TemplateMismatch('a templated value was transformed: pass the result as the value');
      return { constant: p };
    });
    return { sql: compiled.sql, parameters };
  };
  const a = read('a');
  const b = read('b');
  const same =
    a.sql === b.sql &&
    a.parameters.length === b.parameters.length &&
    a.parameters.every((p, i) => {
      const q = b.parameters[i] as Parameter;
      return 'slot' in p ? 'slot' in q && q.slot === p.slot : 'constant' in q && q.constant === p.constant;
    });
  if (!same) throw new TemplateMismatch('the statement changed between two builds of one shape');
  return { sql: a.sql, parameters: a.parameters, checked: false };
}

const sameQuery = (a: CompiledQuery, sql: string, parameters: readonly unknown[]) =>
  a.sql === sql &&
  a.parameters.length === parameters.length &&
  a.parameters.every((p, i) => p === parameters[i]);

export function createStatementTemplates(
  db: Kysely<any>,
  options: { verifyEveryCall?: boolean; onMismatch?: (err: Error) => void } = {},
): StatementTemplates {
  const verifyEveryCall = options.verifyEveryCall ?? process.env.FOLIO_VERIFY_TEMPLATES === '1';
  const templates = new Map<string, Template | 'uncached'>();
  const refuse = (key: string, err: Error) => {
    if (verifyEveryCall) throw err; // tests: a build the template cannot follow is a bug to fix
    options.onMismatch?.(err);
    if (templates.size >= MAX_SHAPES) templates.clear();
    templates.set(key, 'uncached');
  };
  return {
    compile(shape, values, build) {
      const { leaves, key: leafKey } = flatten(values);
      const key = `${shape}\n${leafKey}`;
      let template = templates.get(key);
      if (template === 'uncached') return build(values).compile(db);
      if (!template) {
        try {
          template = templateOf(db, values, build);
        } catch (err) {
          refuse(key, err as Error);
          return build(values).compile(db);
        }
        if (templates.size >= MAX_SHAPES) templates.clear();
        templates.set(key, template);
      }
      const parameters = template.parameters.map((p) => ('slot' in p ? leaves[p.slot] : p.constant));
      if (!template.checked || verifyEveryCall) {
        const fresh = build(values).compile(db);
        if (!sameQuery(fresh, template.sql, parameters)) {
          refuse(
            key,
            new TemplateMismatch(`shape ${JSON.stringify(shape)} built another statement from its values`),
          );
          return fresh;
        }
        template.checked = true;
      }
      return CompiledQuery.raw(template.sql, parameters);
    },
  };
}
