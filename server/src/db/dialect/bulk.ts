import { CompiledQuery, type Kysely } from 'kysely';
import { dialectOf } from './index.js';

/**
 * Bulk statements written as SQL text with positional parameters, for writes of tens of thousands
 * of rows (objects/save). The query builder costs more than the database here: it builds and then
 * (CamelCasePlugin) rewrites one node per value, which was a third of a 30,000-row save. The SQL is
 * the same on both dialects except for the placeholder (`?` vs `$n`), which is why it lives here.
 * Identifiers are snake_case and come from code, never from input.
 */

/** Both dialects accept this many bind parameters per statement (SQLite 32,766; PostgreSQL 65,535). */
export const MAX_BIND_PARAMS = 30_000;

/** Splits rows so each statement stays under the bind-parameter limit. */
export function chunksFor<T>(rows: readonly T[], paramsPerRow: number): T[][] {
  const size = Math.max(1, Math.floor(MAX_BIND_PARAMS / paramsPerRow));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/**
 * Inserts many rows, in as few statements as the bind-parameter limit allows. Rows of one table
 * have the same columns: the statement's head (`insert into "t" ("a", "b") values`) is compiled by
 * the query builder once per table and columns, from a one-row insert, so identifiers are mapped
 * and quoted as everywhere else; the tuples are written here. Why not the builder for all of it: a
 * save of 1,000 objects writes 1,000 activity records, and building and compiling 9,000 value nodes
 * was 17 ms of that save's JavaScript. Rows whose keys differ from the first row's, or that hold an
 * `undefined` (which the builder turns into the column's default) or an expression, go through the
 * builder.
 */
export async function insertInChunks<Row extends object>(
  db: Kysely<any>,
  table: string,
  rows: readonly Row[],
): Promise<void> {
  const first = rows[0];
  if (!first) return;
  const statements = insertStatements(db, table, rows);
  if (statements) {
    for (const statement of statements) await db.executeQuery(statement);
    return;
  }
  for (const chunk of chunksFor(rows, Object.keys(first).length))
    await db.insertInto(table).values(chunk).execute();
}

/** insertInChunks's statements, written without the builder; null when the builder must write them. */
export function insertStatements(
  db: Kysely<any>,
  table: string,
  rows: readonly object[],
): CompiledQuery[] | null {
  const first = rows[0];
  if (!first) return [];
  const columns = Object.keys(first);
  const values = rowValues(rows, columns);
  if (!values) return null;
  const head = insertHead(db, table, first, columns);
  return chunksFor(values, columns.length).map((chunk) =>
    CompiledQuery.raw(`${head} ${tuplePlaceholders(db, chunk.length, columns.length)}`, flatRows(chunk)),
  );
}

/** A query-builder expression (sql`…`, a subquery): only the builder can write it into a statement. */
const isExpression = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { toOperationNode?: unknown }).toOperationNode === 'function';

/** Each row's values in `columns` order; null when a row has other keys, an undefined value or an expression. */
function rowValues(rows: readonly object[], columns: readonly string[]): unknown[][] | null {
  const out: unknown[][] = new Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r] as Record<string, unknown>;
    const keys = Object.keys(row);
    if (keys.length !== columns.length) return null;
    const tuple: unknown[] = new Array(columns.length);
    for (let c = 0; c < columns.length; c++) {
      const value = row[columns[c] as string];
      if (keys[c] !== columns[c] || value === undefined || isExpression(value)) return null;
      tuple[c] = value;
    }
    out[r] = tuple;
  }
  return out;
}

/**
 * `insert into "table" ("col", …) values`, as the builder compiles it; memoised per database
 * handle, by its adapter: the one object a handle shares with its transactions.
 */
const heads = new WeakMap<object, Map<string, string>>();
function insertHead(db: Kysely<any>, table: string, first: object, columns: readonly string[]): string {
  const handle = db.getExecutor().adapter;
  let known = heads.get(handle);
  if (!known) {
    known = new Map();
    heads.set(handle, known);
  }
  const key = `${table}\u0000${columns.join(',')}`;
  let head = known.get(key);
  if (head === undefined) {
    const { sql } = db.insertInto(table).values(first).compile();
    const at = sql.lastIndexOf(' values (');
    if (at < 0) throw new Error(`insertInChunks: no values list in ${sql}`);
    head = sql.slice(0, at + ' values'.length);
    known.set(key, head);
  }
  return head;
}

/** `(p1, p2), (p3, p4)…` for `rows` tuples of `width` parameters, numbered from `start` (1-based). */
export function tuplePlaceholders(db: Kysely<any>, rows: number, width: number, start = 1): string {
  const pg = dialectOf(db) === 'postgres';
  // A save of 20,000 items is seven chunks of the same shape: the text (tens of KB) is written once.
  const key = `${pg ? '$' : '?'}${rows},${width},${start}`;
  let text = placeholderTexts.get(key);
  if (text === undefined) {
    text = placeholders(pg, rows, width, start);
    if (placeholderTexts.size >= 64) placeholderTexts.delete(placeholderTexts.keys().next().value as string);
    placeholderTexts.set(key, text);
  }
  return text;
}

const placeholderTexts = new Map<string, string>();

function placeholders(pg: boolean, rows: number, width: number, start: number): string {
  const parts: string[] = new Array(rows);
  let n = start;
  for (let r = 0; r < rows; r++) {
    const p: string[] = new Array(width);
    for (let c = 0; c < width; c++) p[c] = pg ? `$${n++}` : '?';
    parts[r] = `(${p.join(', ')})`;
  }
  return parts.join(', ');
}

/** The rows' values in one array, row after row: what a statement of tuples binds. */
export function flatRows(rows: readonly (readonly unknown[])[]): unknown[] {
  const width = rows[0]?.length ?? 0;
  const out: unknown[] = new Array(rows.length * width);
  let n = 0;
  for (const row of rows) for (let c = 0; c < width; c++) out[n++] = row[c];
  return out;
}

export interface UpsertSpec {
  table: string;
  columns: readonly string[];
  /** Columns holding integers (the rest are text); PostgreSQL needs the array types. */
  integerColumns?: readonly string[];
  conflict: readonly string[];
  /** The `do update set …` list, referring to `excluded.<column>` and `<table>.<column>`. */
  set: string;
}

/**
 * INSERT … ON CONFLICT (…) DO UPDATE SET … for many rows; each row is an array of values in
 * `columns` order.
 *
 * PostgreSQL: one statement whatever the row count, the rows sent as ONE JSON parameter and spread
 * by `jsonb_array_elements` (in order, so lock order follows row order). jsonb, not json: `e->>n`
 * on json re-scans the element's text for every column (measured: 380 vs 290 ms for 20,000 rows). Rejected: multi-row VALUES
 * (tens of thousands of scalar parameters to bind and parse) and `unnest` of one array per column
 * (node-postgres escapes every element into an array literal in JavaScript); JSON.stringify is native.
 * SQLite: multi-row VALUES in chunks under its parameter limit (in-process: binding is cheap).
 */
export async function bulkUpsert(
  db: Kysely<any>,
  spec: UpsertSpec,
  rows: readonly unknown[][],
): Promise<void> {
  if (rows.length === 0) return;
  const tail = `on conflict (${spec.conflict.join(', ')}) do update set ${spec.set}`;
  const columns = spec.columns.join(', ');
  if (dialectOf(db) === 'postgres') {
    const fields = spec.columns.map((name, c) =>
      spec.integerColumns?.includes(name) ? `(e->>${c})::integer` : `e->>${c}`,
    );
    const text = `insert into ${spec.table} (${columns}) select ${fields.join(', ')} from jsonb_array_elements($1::jsonb) as e ${tail}`;
    await db.executeQuery(CompiledQuery.raw(text, [JSON.stringify(rows)]));
    return;
  }
  for (const chunk of chunksFor(rows, spec.columns.length)) {
    const text = `insert into ${spec.table} (${columns}) values ${tuplePlaceholders(db, chunk.length, spec.columns.length)} ${tail}`;
    await db.executeQuery(CompiledQuery.raw(text, flatRows(chunk)));
  }
}

/**
 * Runs `sqlBefore (values (…), (…)) sqlAfter` once per chunk of key tuples. `:0`, `:1`… in
 * `sqlBefore` stand for the `leading` parameters (e.g. the project id); `sqlAfter` takes none.
 * `x IN (values …)` is the form both dialects plan as index lookups per tuple (a join against
 * VALUES made SQLite scan the table once per tuple). Returns the summed affected-row count and
 * the rows of every chunk.
 */
export async function forKeyChunks<R>(
  db: Kysely<any>,
  keys: readonly (readonly string[])[],
  sqlBefore: string,
  sqlAfter: string,
  leading: readonly unknown[],
): Promise<{ affected: number; rows: R[] }> {
  let affected = 0;
  const rows: R[] = [];
  const width = keys[0]?.length ?? 1;
  const pg = dialectOf(db) === 'postgres';
  for (const chunk of chunksFor(keys, width)) {
    const lead = leading.map((_, i) => (pg ? `$${i + 1}` : '?'));
    const text = `${sqlBefore.replace(/:(\d+)/g, (_, i) => lead[Number(i)]!)} (values ${tuplePlaceholders(db, chunk.length, width, leading.length + 1)})${sqlAfter}`;
    const res = await db.executeQuery<R>(CompiledQuery.raw(text, [...leading, ...flatRows(chunk)]));
    affected += Number(res.numAffectedRows ?? 0);
    rows.push(...res.rows);
  }
  return { affected, rows };
}
