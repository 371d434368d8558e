import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

/**
 * The module boundaries of STYLE.md ("Avoid"), checked on the source's import lines so a change
 * that crosses one fails here instead of in review: no cycle between modules, no service or
 * repository importing http/, shared/ depending on nothing of ours but itself.
 */
const src = resolve(new URL('../src', import.meta.url).pathname);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Each file's imports of our own code, as paths relative to src/ (type-only imports included). */
const imports = new Map(
  sourceFiles(src).map((file) => {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.{1,2}\/[^']+)'/gms)].map((m) =>
      relative(src, resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts'))),
    );
    return [relative(src, file), targets] as const;
  }),
);

/** `modules/<name>` for a file of a module; the top folder (http, shared, db, jobs…) otherwise. */
const areaOf = (path: string): string => {
  const [top, name] = path.split('/');
  return top === 'modules' ? `modules/${name}` : (top ?? path);
};

describe('module boundaries', () => {
  it('finds the source and its imports', () => {
    assert.ok(imports.size > 50);
    assert.ok([...imports.values()].some((targets) => targets.length > 0));
  });

  it('no service or repository imports http/', () => {
    const offenders = [...imports]
      .filter(([file]) => /\.(service|repository)\.ts$/.test(file))
      .flatMap(([file, targets]) =>
        targets.filter((t) => t.startsWith('http/')).map((t) => `${file} -> ${t}`),
      );
    assert.deepEqual(offenders, []);
  });

  it('shared/ imports nothing of ours outside shared/ but types of jobs/ and db/', () => {
    const offenders = [...imports]
      .filter(([file]) => file.startsWith('shared/'))
      .flatMap(([file, targets]) =>
        targets
          .filter(
            (t) => !t.startsWith('shared/') && !t.startsWith('jobs/attempts') && !t.startsWith('db/dialect/'),
          )
          .map((t) => `${file} -> ${t}`),
      );
    assert.deepEqual(offenders, []);
  });

  it('modules import each other without cycles', () => {
    const edges = new Map<string, Set<string>>();
    for (const [file, targets] of imports) {
      const from = areaOf(file);
      if (!from.startsWith('modules/')) continue;
      for (const target of targets) {
        const to = areaOf(target);
        if (to !== from && to.startsWith('modules/')) {
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
    assert.deepEqual(cycles, []);
  });
});
