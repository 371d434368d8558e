import type { FieldProblem } from '../../shared/errors.js';
import {
  codePoints,
  FIELD_TYPES,
  type FieldDeclaration,
  isPlainObject,
  ownOf,
  specOf,
} from './field-types.js';
import { checkDefault } from './field-values.js';
import { LIMITS } from './limits.js';
import { RuleBudget } from './rule-budget.js';

/**
 * A component's field declarations as a sync sends them (contract §13, §17), checked with the path of
 * each problem (`body.components[0].fields[2].fields[0].options`). The route's schema only asks for
 * `{ key, type }` objects; everything a type means is field-types.ts, applied here.
 */

const TYPE_LIST = FIELD_TYPES.join(', ');
/** Keys declared inside containers (§17); `_key` and `_type` stay the server's. */
const NESTED_KEY = /^[A-Za-z][A-Za-z0-9_]{0,127}$/;

const COMMON_CHECKS: Record<string, (v: unknown) => string | null> = {
  label: (v) =>
    typeof v === 'string' && codePoints(v) <= 100 ? null : 'must be a string of at most 100 characters',
  help: (v) =>
    typeof v === 'string' && codePoints(v) <= 500 ? null : 'must be a string of at most 500 characters',
  required: (v) => (typeof v === 'boolean' ? null : 'must be true or false'),
  localized: (v) => (typeof v === 'boolean' ? null : 'must be true or false'),
};

/**
 * Problems of one component's `fields`, at `path` (`body.components[0].fields`). Patterns are
 * compiled, and defaults checked against them, within the sync's `budget` (contract §23): when it
 * runs out, `budget.ranOut` says so and the problems name what was not checked.
 */
export function checkDeclarations(
  fields: readonly FieldDeclaration[],
  path: string,
  budget: RuleBudget = new RuleBudget(),
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const fail = (at: string, message: string) => problems.push({ path: at, message });
  const bytes = Buffer.byteLength(JSON.stringify(fields));
  if (bytes > LIMITS.componentDeclarationBytes) {
    fail(
      path,
      `a component's declarations are at most ${LIMITS.componentDeclarationBytes} bytes as JSON, not ${bytes}`,
    );
    return problems;
  }
  let total = 0;

  /** `depth`: how many containers hold this list (0 at the top). */
  function walk(list: readonly unknown[], at: string, depth: number): void {
    const keys = new Set<string>();
    for (const [i, raw] of list.entries()) {
      const here = `${at}[${i}]`;
      total += 1;
      if (!isPlainObject(raw) || typeof raw.key !== 'string' || typeof raw.type !== 'string') {
        fail(here, 'must be a field declaration { key, type, ...options }');
        continue;
      }
      const d = raw as FieldDeclaration;
      if (depth > 0) {
        if (!NESTED_KEY.test(d.key)) {
          fail(`${here}.key`, 'must match [A-Za-z][A-Za-z0-9_]* (at most 128 characters) inside a container');
        } else if (keys.has(d.key)) fail(`${here}.key`, 'is declared twice');
        keys.add(d.key);
      }
      const spec = specOf(d.type);
      if (!spec) {
        fail(`${here}.type`, `"${d.type}" is not a field type; use one of: ${TYPE_LIST}.`);
        continue;
      }
      const before = problems.length;
      for (const [option, value] of Object.entries(d)) {
        if (option === 'key' || option === 'type' || option === 'default') continue;
        // Own properties only: an option named `constructor` must not find Object's.
        const check = ownOf(COMMON_CHECKS, option) ?? ownOf(spec.options, option);
        if (!check) {
          fail(`${here}.${option}`, `is not an option of a "${d.type}" field`);
          continue;
        }
        const message = check(value, d, budget);
        if (message) fail(`${here}.${option}`, message);
      }
      if (depth > 0 && d.localized !== undefined) {
        fail(`${here}.localized`, 'applies to top-level fields only');
      }
      for (const option of spec.requires ?? []) {
        if (d[option] === undefined) fail(`${here}.${option}`, `is required for a "${d.type}" field`);
      }
      if (problems.length > before) continue;
      for (const { option, message } of spec.declare?.(d) ?? []) fail(`${here}.${option}`, message);
      for (const child of spec.children?.(d) ?? []) {
        if (depth + 1 > LIMITS.containerDepth) {
          fail(here, `containers (object, list, blocks) nest at most ${LIMITS.containerDepth} deep`);
          break;
        }
        walk(child.fields, `${here}${child.path}`, depth + 1);
      }
      if (d.default !== undefined && problems.length === before) {
        if (spec.noDefault) fail(`${here}.default`, `a "${d.type}" field takes no default`);
        else problems.push(...checkDefault(d, d.default, `${here}.default`, budget));
      }
    }
  }
  walk(fields, path, 0);
  if (total > LIMITS.declarationsPerComponent) {
    return [
      {
        path,
        message: `a component holds at most ${LIMITS.declarationsPerComponent} declarations, containers and nested fields included; this one has ${total}`,
      },
    ];
  }
  return problems;
}

/** The top-level `default`s, for the working copy of a stub the sync creates (§13). */
export function defaultsOf(fields: readonly FieldDeclaration[]): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  for (const f of fields) if (f.default !== undefined) defaults[f.key] = f.default;
  return defaults;
}

/** A declaration without the options in `drop`, at every depth (for the publishable key's limits, §17). */
export function withoutOptions(d: FieldDeclaration, drop: ReadonlySet<string>): FieldDeclaration {
  const out: FieldDeclaration = { key: d.key, type: d.type };
  for (const [option, value] of Object.entries(d)) {
    if (option === 'key' || option === 'type' || drop.has(option)) continue;
    out[option] = value;
  }
  if (Array.isArray(d.fields))
    out.fields = (d.fields as FieldDeclaration[]).map((f) => withoutOptions(f, drop));
  if (Array.isArray(d.blocks)) {
    out.blocks = (d.blocks as { fields: FieldDeclaration[] }[]).map((b) => ({
      ...b,
      fields: b.fields.map((f) => withoutOptions(f, drop)),
    }));
  }
  return out;
}

/** Which of the options in `of` the declaration carries at any depth, in a stable order. */
export function optionsPresent(d: FieldDeclaration, of: readonly string[]): string[] {
  const found = new Set<string>();
  const visit = (x: FieldDeclaration) => {
    for (const option of of) if (x[option] !== undefined) found.add(option);
    if (Array.isArray(x.fields)) for (const f of x.fields as FieldDeclaration[]) visit(f);
    if (Array.isArray(x.blocks))
      for (const b of x.blocks as { fields: FieldDeclaration[] }[]) for (const f of b.fields) visit(f);
  };
  visit(d);
  return of.filter((o) => found.has(o));
}
