import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

/**
 * The module boundaries of STYLE.md (19 and "Avoid"), read from the source so a change that crosses
 * one fails here instead of in review:
 * - a table is named in a query only by the module whose `*.table.ts` declares it;
 * - another area imports a module (or the outbox) only through its door, `index.ts`;
 * - shared/ imports nothing of ours outside shared/ but types;
 * - no cycle between modules; no service or repository importing http/.
 * Imports are every `import … from`, `export … from`, side-effect `import '…'` and dynamic `import('…')`.
 * Each rule fails with the list of what breaks it, one line per offence.
 */
const src = resolve(new URL('../src', import.meta.url).pathname);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const texts = new Map(sourceFiles(src).map((file) => [relative(src, file), readFileSync(file, 'utf8')]));

interface Import {
  target: string;
  /** `import type …`, or every name imported as `type X`: erased by the compiler. */
  typeOnly: boolean;
}

/** Where a relative specifier points, as a path relative to src/ (`./x.js` is the file `x.ts`; a folder is its index.ts). */
function resolveSpecifier(file: string, specifier: string): string {
  const path = relative(src, resolve(dirname(join(src, file)), specifier));
  if (path.endsWith('.js')) return path.replace(/\.js$/, '.ts');
  return existsSync(join(src, path)) && !path.endsWith('.ts') ? join(path, 'index.ts') : path;
}

const STATIC = /^\s*(import|export)\s+(type\s+)?([^;'"]*?)\s*from\s*'([^']+)'/gms;
const BARE = /^\s*import\s+'([^']+)'/gm;
const DYNAMIC = /\bimport\(\s*['"`]([^'"`]+)['"`]\s*\)/g;

function importsOf(file: string, text: string): Import[] {
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    if (specifier.startsWith('.')) found.push({ target: resolveSpecifier(file, specifier), typeOnly });
  };
  for (const m of text.matchAll(STATIC)) {
    const names = m[3]!.trim();
    const every =
      names.startsWith('{') && /^\{\s*\}$|^\{(\s*type\s+\w+(\s+as\s+\w+)?\s*,?)+\s*\}$/.test(names);
    add(m[4]!, Boolean(m[2]) || (every && names !== '{}'));
  }
  for (const m of text.matchAll(BARE)) add(m[1]!, false);
  for (const m of text.matchAll(DYNAMIC)) add(m[1]!, false);
  return found;
}

const imports = new Map([...texts].map(([file, text]) => [file, importsOf(file, text)]));

/** `modules/<name>` for a file of a module; the top folder (http, shared, db, jobs, outbox…) otherwise. */
const areaOf = (path: string): string => {
  const [top, name] = path.split('/');
  return top === 'modules' ? `modules/${name}` : path.includes('/') ? top! : '.';
};

/** Areas that own tables and show a door: every module, and the outbox. */
const hasDoor = (area: string): boolean => area.startsWith('modules/') || area === 'outbox';

/**
 * Each table's owner: the table interfaces a `*.table.ts` declares, matched to their names in the
 * Database interface (src/db/database.ts).
 */
function tableOwners(): Map<string, string> {
  const ownerOfType = new Map<string, string>();
  for (const [file, text] of texts) {
    if (!file.endsWith('.table.ts')) continue;
    for (const m of text.matchAll(/^export interface (\w+)/gm)) ownerOfType.set(m[1]!, areaOf(file));
  }
  const body = texts.get('db/database.ts')!.match(/export interface Database \{([^}]*)\}/)![1]!;
  return new Map(
    [...body.matchAll(/^\s*(\w+): (\w+);/gm)].map((m) => [
      m[1]!,
      ownerOfType.get(m[2]!) ?? '(no *.table.ts)',
    ]),
  );
}
const owners = tableOwners();
const snakeOf = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camelOf = (name: string) => name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
/** A table's snake_case name after `from`, `into`, `update` or `join` in SQL text. */
const inSql = new RegExp(
  `\\b(?:from|into|update|join)\\s+(${[...owners.keys()].map(snakeOf).join('|')})\\b`,
  'gi',
);

/**
 * The tables a file names in a query: Kysely's builders (`selectFrom`, `insertInto`, `updateTable`,
 * `deleteFrom`, the joins), the writers of db/dialect/ that take a table (`insertInChunks`,
 * `sideWrite`, a `table:` property), and SQL text (`from`, `into`, `update`, `join` before a
 * table's snake_case name).
 */
function tablesNamedIn(text: string): Set<string> {
  const named = new Set<string>();
  const builder =
    /\b(?:selectFrom|insertInto|updateTable|deleteFrom|mergeInto|replaceInto|(?:inner|left|right|full|cross)Join(?:Lateral)?)\(\s*'(\w+)/g;
  for (const m of text.matchAll(builder)) named.add(m[1]!);
  for (const m of text.matchAll(/\b(?:insertInChunks|sideWrite)\([^)'"]*'(\w+)'/g)) named.add(m[1]!);
  for (const m of text.matchAll(/\btable:\s*'(\w+)'/g)) named.add(m[1]!);
  for (const m of text.matchAll(inSql)) named.add(m[1]!.toLowerCase());
  return new Set([...named].map(camelOf).filter((t) => owners.has(t)));
}

/** Where a table may be named besides its owner: the schema's assembly and the migrations. */
const schemaFiles = (file: string) => file === 'db/database.ts' || file.startsWith('db/migrations/');

/** Imports that may bypass a door: the Database interface is assembled from the table types. */
const mayBypassDoor = (file: string, imp: Import) =>
  file === 'db/database.ts' && imp.typeOnly && imp.target.endsWith('.table.ts');

/** Fails listing every offence, one per line (assert's own diff would cut a long list short). */
function none(offences: readonly string[], rule: string): void {
  assert.ok(offences.length === 0, `${rule}: ${offences.length}\n  ${offences.join('\n  ')}`);
}

describe('module boundaries', () => {
  it('finds the source, its imports and every table with its owner', () => {
    assert.ok(imports.size > 50);
    assert.ok([...imports.values()].some((targets) => targets.length > 0));
    assert.ok(owners.size >= 20);
    none(
      [...owners].filter(([, owner]) => !hasDoor(owner)).map(([table, owner]) => `${table}: ${owner}`),
      'tables without an owning module',
    );
  });

  it('reads every kind of import and every way of naming a table', () => {
    const text = [
      "import type { A } from '../users/users.table.js';",
      "import { type B, type C } from '../users/index.js';",
      "import { d, type E } from '../content/content.service.js';",
      "export { f } from '../definitions/limits.js';",
      "import '../../process-setup.js';",
      "const g = await import('../media/storage/s3.js');",
    ].join('\n');
    assert.deepEqual(importsOf('modules/projects/x.ts', text), [
      { target: 'modules/users/users.table.ts', typeOnly: true },
      { target: 'modules/users/index.ts', typeOnly: true },
      { target: 'modules/content/content.service.ts', typeOnly: false },
      { target: 'modules/definitions/limits.ts', typeOnly: false },
      { target: 'process-setup.ts', typeOnly: false },
      { target: 'modules/media/storage/s3.ts', typeOnly: false },
    ]);
    const queries = [
      "db.selectFrom('sessions as s').innerJoin('memberships as m', 'm.accountId', 's.accountId')",
      "({ selectFrom }) => selectFrom('accounts')",
      "insertInChunks(trx, 'activity', rows)",
      "{ table: 'object_items', conflict: ['id'] }",
      'sql`delete from login_failures where ip = $1`',
    ].join('\n');
    assert.deepEqual([...tablesNamedIn(queries)].sort(), [
      'accounts',
      'activity',
      'loginFailures',
      'memberships',
      'objectItems',
      'sessions',
    ]);
  });

  it('a table is named in a query only by the module that declares it', () => {
    const offenders = [...texts]
      .filter(([file]) => !schemaFiles(file))
      .flatMap(([file, text]) =>
        [...tablesNamedIn(text)]
          .filter((table) => owners.get(table) !== areaOf(file))
          .map((table) => `${file} names ${table} (owned by ${owners.get(table)})`),
      );
    none(offenders, 'tables named outside their module');
  });

  it('every module and the outbox show a door (index.ts)', () => {
    const areas = new Set([...texts.keys()].map(areaOf).filter(hasDoor));
    const missing = [...areas].filter((area) => !texts.has(`${area}/index.ts`));
    none(missing, 'modules without an index.ts');
  });

  it('another area imports a module or the outbox only through its index.ts', () => {
    const offenders = [...imports].flatMap(([file, list]) =>
      list
        .filter((imp) => {
          const to = areaOf(imp.target);
          return (
            hasDoor(to) && to !== areaOf(file) && imp.target !== `${to}/index.ts` && !mayBypassDoor(file, imp)
          );
        })
        .map((imp) => `${file} -> ${imp.target}`),
    );
    none(offenders, 'imports that bypass a door');
  });

  it('no service or repository imports http/', () => {
    const offenders = [...imports]
      .filter(([file]) => /\.(service|repository)\.ts$/.test(file))
      .flatMap(([file, list]) =>
        list.filter((imp) => imp.target.startsWith('http/')).map((imp) => `${file} -> ${imp.target}`),
      );
    none(offenders, 'services and repositories importing http/');
  });

  it('shared/ imports nothing of ours outside shared/ but types', () => {
    const offenders = [...imports]
      .filter(([file]) => file.startsWith('shared/'))
      .flatMap(([file, list]) =>
        list
          .filter((imp) => !imp.target.startsWith('shared/') && !imp.typeOnly)
          .map((imp) => `${file} -> ${imp.target} (a value)`),
      );
    none(offenders, 'values shared/ imports from outside shared/');
  });

  it('modules (and the outbox) import each other without cycles', () => {
    const edges = new Map<string, Set<string>>();
    for (const [file, list] of imports) {
      const from = areaOf(file);
      if (!hasDoor(from)) continue;
      for (const { target } of list) {
        const to = areaOf(target);
        if (to !== from && hasDoor(to)) {
          if (!edges.has(from)) edges.set(from, new Set());
          edges.get(from)!.add(to);
        }
      }
    }
    const cycles: string[] = [];
    const visiting: string[] = [];
    const done = new Set<string>();
    const visit = (node: string): void => {
      if (done.has(node)) return;
      const at = visiting.indexOf(node);
      if (at >= 0) {
        cycles.push([...visiting.slice(at), node].join(' -> '));
        return;
      }
      visiting.push(node);
      for (const next of edges.get(node) ?? []) visit(next);
      visiting.pop();
      done.add(node);
    };
    for (const node of edges.keys()) visit(node);
    none(cycles, 'cycles between modules');
  });
});
