import type { Schemas } from '@folio/client';
import { createContext, useContext } from 'react';
import { own } from '../../../../lib/own';

/**
 * A field's declaration as the controls read it: any variant of the generated `FieldDeclaration`
 * (top level) or `NestedFieldDeclaration` (inside an object, a list item or a block). The options a
 * control uses (`label`, `help`, `required`, `default`, `options`, `fields`, `blocks`, …) are read
 * from it by name, so no declaration type is restated here.
 */
export type Decl = Schemas['NestedFieldDeclaration'];
export type BlockDecl = Schemas['BlockDeclaration'];
export type Item = Record<string, unknown> & { _key: string; _type?: string };

export const labelOf = (d: Decl): string => (typeof d.label === 'string' && d.label ? d.label : d.key);
export const nestedOf = (d: Decl): Decl[] => (Array.isArray(d.fields) ? (d.fields as Decl[]) : []);
export const blocksOf = (d: Decl): BlockDecl[] => (Array.isArray(d.blocks) ? (d.blocks as BlockDecl[]) : []);

/** Label, help (else the type, as the other controls show it), and the required marker. */
export const inputProps = (d: Decl) => ({
  label: labelOf(d),
  description: typeof d.help === 'string' && d.help ? d.help : d.type,
  withAsterisk: d.required === true,
});

const KEY_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new item's `_key`: 12 random [A-Za-z0-9], as the server would give one (contract §17). */
export function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => KEY_CHARS[b % KEY_CHARS.length]).join('');
}

/** The declared defaults of some fields, for a new list item, block or object. */
export function defaultsOf(fields: Decl[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.default === undefined) continue;
    out[f.key] = Array.isArray(f.default)
      ? (f.default as Record<string, unknown>[]).map((item) => ({ ...item, _key: newKey() }))
      : structuredClone(f.default);
  }
  return out;
}

/** The first text field's value: a list item's or block's title. */
export function titleOf(fields: Decl[], item: Record<string, unknown>): string | null {
  const first = fields.find((f) => f.type === 'text' && typeof own(item, f.key) === 'string' && item[f.key]);
  return first ? (item[first.key] as string) : null;
}

/**
 * The problems to show, by path (`fields.features[2].title`, contract §17): the API's `problems` of
 * the entry, or a 422 `unpublishable` answer's. A container also counts those below it.
 */
export interface Problems {
  at(path: string): string[];
  below(path: string): number;
}
const none: Problems = { at: () => [], below: () => 0 };
export const ProblemsContext = createContext<Problems>(none);
export const useProblems = () => useContext(ProblemsContext);

export function problemsOf(list: { path: string; message: string }[]): Problems {
  const byPath = new Map<string, string[]>();
  for (const p of list) byPath.set(p.path, [...(byPath.get(p.path) ?? []), p.message]);
  return {
    at: (path) => byPath.get(path) ?? [],
    below: (path) =>
      list.filter((p) => p.path.startsWith(`${path}.`) || p.path.startsWith(`${path}[`)).length,
  };
}

/** Mantine's error prop: the messages joined, or null. */
export const errorOf = (local: string | null, problems: string[]) => {
  const all = [...(local ? [local] : []), ...problems];
  return all.length > 0 ? all.join('; ') : null;
};

/**
 * A place the site's preview selected (visual editing): the `_key`s of the items to open so that it
 * shows, and the request it came with (each selection opens them again, even if closed meanwhile).
 */
export interface Reveal {
  keys: ReadonlySet<string>;
  request: number;
}
export const RevealContext = createContext<Reveal>({ keys: new Set(), request: 0 });
export const useReveal = () => useContext(RevealContext);
