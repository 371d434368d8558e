/**
 * Field declarations (contract §13, §17) as a site writes them, and the value types inferred from
 * them. A component's fields are a record `key → declaration`, where a declaration is a type name
 * (`'text'`, today's form) or what a builder returns:
 *
 *   const Testimonial = component('Testimonial', { quote: text({ required: true }), author: 'text' });
 *   const Home = component('Home', {
 *     variant: select(['light', 'dark', 'brand'], { required: true }),
 *     features: list({ title: 'text', icon: select(['bolt', 'star']) }, { max: 12 }),
 *     testimonials: reference(Testimonial, { multiple: true }),
 *   });
 *   type HomeValues = ValuesOf<typeof Home.fields>;
 *
 * A builder returns the wire declaration itself, `{ type, ...options }`, nested `fields` already
 * converted to the wire's arrays, so `fieldsOf` only adds each key: the builders are a line each and
 * everything else is types. The value type rides on the declaration as optional properties keyed by
 * symbols that exist only in the types (`declare const`), so nothing of it reaches the wire or the
 * bundle. Rejected: a declaration class with a `parse` per type (zod's way): it would ship a
 * validator the server already is, and the SDK has to stay small.
 */

import type { PageEntry } from './types.js';

declare const VALUE: unique symbol;
declare const REQUIRED: unique symbol;
declare const LOCALIZED: unique symbol;

// ---- The wire (POST /v1/definitions/sync, GET /v1/definitions/:pageId) ----

/** `{ source, message? }`: RE2 syntax, matched against the whole value. */
export interface Pattern {
  source: string;
  message?: string;
}

/** Options every declaration may carry. `localized` only at the top level of a component. */
interface Common {
  label?: string;
  help?: string;
  required?: boolean;
  default?: unknown;
  localized?: boolean;
}

/** Counts of items, selected options or references. */
interface Counts {
  min?: number;
  max?: number;
}

/**
 * One field as the sync takes it, without its `key`. Written here from contract §13 until the API's
 * own `FieldDeclaration` schema reaches the generated client; then this becomes an alias of it.
 */
export type FieldBody = Common &
  (
    | { type: 'text'; minLength?: number; maxLength?: number; pattern?: Pattern; multiline?: boolean }
    | { type: 'richtext'; maxLength?: number }
    | { type: 'number'; min?: number; max?: number; integer?: boolean }
    | { type: 'date'; min?: string; max?: string }
    | { type: 'boolean' | 'datetime' | 'color' | 'image' | 'url' | 'json' | 'link' }
    | ({ type: 'select'; options: { value: string; label?: string }[]; multiple?: boolean } & Counts)
    | ({ type: 'reference'; componentIds?: string[]; multiple?: boolean } & Counts)
    | { type: 'object'; fields: FieldDefinition[] }
    | ({ type: 'list'; fields: FieldDefinition[] } & Counts)
    | ({
        type: 'blocks';
        blocks: { componentId: string; label?: string; fields: FieldDefinition[] }[];
      } & Counts)
  );

/** One field as the sync takes it: `{ key, type, ...options }`. */
export type FieldDefinition = FieldBody & { key: string };

/** Every field type of contract §13. */
export type FieldType = FieldBody['type'];

// ---- Declarations as a site writes them ----

/** Types declared by their name alone: those with no required option. */
export type SimpleType = Exclude<FieldType, 'select' | 'object' | 'list' | 'blocks'>;

/**
 * What a builder returns: the wire declaration, carrying in its type the value it holds (`V`),
 * whether it is `required` (`R`) and `localized` (`L`).
 */
export type Field<V = unknown, R extends boolean = boolean, L extends boolean = boolean> = FieldBody & {
  readonly [VALUE]?: V;
  readonly [REQUIRED]?: R;
  readonly [LOCALIZED]?: L;
};

/** A component's fields: key → a type name or a builder's declaration. */
export type Fields = Record<string, SimpleType | Field>;
/**
 * Fields inside an `object`, a list item or a block: nothing in them may be `localized`, and no key
 * starts with `_` (`_key` and `_type` are the server's, contract §17).
 */
export type NestedFields = Record<string, SimpleType | Field<unknown, boolean, false>> & {
  [reserved: `_${string}`]: never;
};

/** A kind of component: its id and its fields (what `component()` returns). */
export interface Component<Id extends string = string, F extends Fields = Fields> {
  componentId: Id;
  fields: F;
}

// ---- Values ----

/** A `link`: a page of this project, or an address. */
export type Link = { pageId: string } | { href: string };

/**
 * A reference as visitors and preview read it: the entry as that reader sees it, its own
 * references resolved in turn down to `?depth=`.
 */
export interface ResolvedEntry<Id extends string = string, V = Record<string, unknown>> {
  id: string;
  pageId: string;
  instanceKey: string;
  componentId: Id;
  fields: V;
}

/**
 * One reference: resolved, or `{ id }` alone below `?depth=`, on a cycle, or past one answer's budget
 * (1,000 resolved occurrences, 5 MiB of their JSON by default: the server's CMS_RESOLVE_MAX_BYTES).
 * (A single reference whose entry the reader cannot see is `null`.)
 */
export type Reference<T extends Component | string = string> = EntryFor<T> | { id: string };

/** The entry a reference to `T` resolves to: typed by a `component()`, generic for a componentId. */
type EntryFor<T> =
  T extends Component<infer Id, infer F extends Fields>
    ? ResolvedEntry<Id, ValuesOf<F>>
    : T extends string
      ? ResolvedEntry<T>
      : never;

type ShorthandValue = {
  text: string;
  richtext: string;
  number: number;
  boolean: boolean;
  date: string;
  datetime: string;
  color: string;
  image: string;
  url: string;
  json: unknown;
  link: Link;
  reference: Reference | null;
};

/** The value a field of this declaration holds. */
export type ValueOf<F> = F extends SimpleType
  ? ShorthandValue[F]
  : F extends { readonly [VALUE]?: infer V }
    ? V
    : never;

type IsRequired<F> = F extends { readonly [REQUIRED]?: true } ? true : false;

type Flat<T> = { [K in keyof T]: T[K] } & {};

/**
 * The values of declared fields: each is `undefined` until an editor fills it, unless it is
 * `required` (a published entry passed its rules; a draft read with a preview token may not have).
 */
export type ValuesOf<F extends Fields> = Flat<{
  readonly [K in keyof F]: IsRequired<F[K]> extends true ? ValueOf<F[K]> : ValueOf<F[K]> | undefined;
}>;

/** A list item: its fields and the `_key` that keeps its identity across reorders. */
export type Item<F extends Fields> = Flat<{ readonly _key: string } & ValuesOf<F>>;

/** A block of a `blocks` field: `_type` says which of its declared blocks it is. */
export type Block<B> = B extends { componentId: infer Id extends string; fields: infer F extends Fields }
  ? Flat<{ readonly _key: string; readonly _type: Id } & ValuesOf<F>>
  : never;

/** An entry of a page whose fields are typed by its component's declaration. */
export type EntryOf<C extends Component> = Omit<PageEntry, 'componentId' | 'fields'> & {
  componentId: C['componentId'];
  fields: ValuesOf<C['fields']>;
};

// ---- Builders ----

/** What a builder called without options declares. */
type NoOptions = Record<never, never>;
type Options<V> = Omit<Common, 'default'> & { default?: V };
type Req<O> = O extends { required: true } ? true : false;
type Loc<O> = O extends { localized: true } ? true : false;
type Built<V, O> = Field<V, Req<O>, Loc<O>>;

/** `{ type, ...more, ...options }`, typed as the builder says (its value type exists only in types). */
const decl = (type: FieldType, options?: object, more?: object): never =>
  ({ type, ...more, ...options }) as never;

/** A component's declaration, its field types kept: pass it to `register`, `useFolio` or `reference`. */
export function component<const Id extends string, const F extends Fields>(
  componentId: Id,
  fields: F,
): Component<Id, F> {
  return { componentId, fields };
}

/** The wire declarations of a component's fields: `[{ key, type, ...options }]`, in key order. */
export function fieldsOf(fields: Fields): FieldDefinition[] {
  return Object.entries(fields).map(([key, field]) =>
    typeof field === 'string' ? { key, type: field } : { key, ...field },
  );
}

export function text<
  const O extends Options<string> & {
    minLength?: number;
    maxLength?: number;
    pattern?: Pattern;
    multiline?: boolean;
  },
>(options?: O): Built<string, O> {
  return decl('text', options);
}

export function richtext<const O extends Options<string> & { maxLength?: number }>(
  options?: O,
): Built<string, O> {
  return decl('richtext', options);
}

export function number<const O extends Options<number> & { min?: number; max?: number; integer?: boolean }>(
  options?: O,
): Built<number, O> {
  return decl('number', options);
}

export function boolean<const O extends Options<boolean>>(options?: O): Built<boolean, O> {
  return decl('boolean', options);
}

/** `YYYY-MM-DD`; `min` and `max` are dates in the same form. */
export function date<const O extends Options<string> & { min?: string; max?: string }>(
  options?: O,
): Built<string, O> {
  return decl('date', options);
}

/** RFC 3339 with `Z` or an offset, returned as written. */
export function datetime<const O extends Options<string>>(options?: O): Built<string, O> {
  return decl('datetime', options);
}

/** `#rgb`, `#rrggbb` or `#rrggbbaa`. */
export function color<const O extends Options<string>>(options?: O): Built<string, O> {
  return decl('color', options);
}

export function image<const O extends Options<string>>(options?: O): Built<string, O> {
  return decl('image', options);
}

export function url<const O extends Options<string>>(options?: O): Built<string, O> {
  return decl('url', options);
}

/** Any JSON value (typed `unknown`: nothing checks its shape). */
export function json<const O extends Options<unknown>>(options?: O): Built<unknown, O> {
  return decl('json', options);
}

/** `{ pageId }` (a page of this project, not a shared `@` page) or `{ href }`. Takes no `default`. */
export function link<const O extends Omit<Common, 'default'>>(options?: O): Built<Link, O> {
  return decl('link', options);
}

type Choice<V extends string> = V | { value: V; label?: string };
type Chosen<V, O> = O extends { multiple: true } ? V[] : V;

/** One of `values` (their union is the value type); an array of distinct ones with `multiple`. */
export function select<
  const V extends string,
  const O extends Omit<Common, 'default'> &
    Counts & { multiple?: boolean; default?: V | readonly V[] } = NoOptions,
>(values: readonly Choice<V>[], options?: O): Built<Chosen<V, O>, O> {
  const choices = values.map((value) => (typeof value === 'string' ? { value } : value));
  return decl('select', options, { options: choices });
}

/** The fields of one value, held together (an address, an SEO block). */
export function object<const F extends NestedFields, const O extends Options<ValuesOf<F>>>(
  fields: F,
  options?: O,
): Built<ValuesOf<F>, O> {
  return decl('object', options, { fields: fieldsOf(fields) });
}

/** A list item or block as written (a `default`): the server gives one without `_key` a new key. */
type Written<T> = T extends unknown ? Omit<T, '_key'> & { readonly _key?: string } : never;

/** Items of the same fields; each carries `_key`. `min`, `max`: item counts (≤ 1000). */
export function list<const F extends NestedFields, const O extends Options<Written<Item<F>>[]> & Counts>(
  fields: F,
  options?: O,
): Built<Item<F>[], O> {
  return decl('list', options, { fields: fieldsOf(fields) });
}

/** One kind of block of a `blocks` field (a `component()` fits here too). */
export function block<const Id extends string, const F extends NestedFields>(
  componentId: Id,
  fields: F,
  options?: { label?: string },
): { componentId: Id; label?: string; fields: F } {
  return { componentId, fields, ...options };
}

/** Sections an editor adds and reorders: each is `{ _key, _type, …fields }` of one declared block. */
type Kind = { componentId: string; label?: string; fields: NestedFields };

export function blocks<
  const K extends readonly [Kind, ...Kind[]],
  const O extends Options<Written<Block<K[number]>>[]> & Counts,
>(kinds: K, options?: O): Built<Block<K[number]>[], O> {
  const wire = kinds.map(({ componentId, label, fields }) => ({
    componentId,
    ...(label !== undefined && { label }),
    fields: fieldsOf(fields),
  }));
  return decl('blocks', options, { blocks: wire });
}

type Target = Component | string;
type Targets<T> = T extends readonly (infer E)[] ? E : T;
type Resolved<T> = [T] extends [undefined] ? Reference : EntryFor<Targets<T>> | { id: string };
type Referencing<T, O> = O extends { multiple: true } ? Resolved<T>[] : Resolved<T> | null;

/**
 * An entry elsewhere (a testimonial on `@site`), typed by its target's declaration when `to` is a
 * `component()`: `reference(Testimonial)`, `reference([Quote, Logo], { multiple: true })`. A
 * componentId (`reference('Testimonial')`) only restricts the kind; no target allows any entry.
 * The stored value is an entry id; visitors and preview read it resolved. Takes no `default`.
 */
export function reference<
  const T extends Target | readonly Target[] | undefined = undefined,
  const O extends Omit<Common, 'default'> & Counts & { multiple?: boolean } = NoOptions,
>(to?: T, options?: O): Built<Referencing<T, O>, O> {
  const targets = to === undefined ? [] : Array.isArray(to) ? to : [to];
  const ids = (targets as Target[]).map((t) => (typeof t === 'string' ? t : t.componentId));
  return decl('reference', options, ids.length > 0 ? { componentIds: ids } : undefined);
}

/**
 * The entry `instanceKey` of a page's entries, typed by `component`'s declaration; undefined when
 * there is none or it is of another component. The types trust the declaration: the server checks
 * shapes on every write (contract §13), and the SDK does not check them again.
 */
export function findEntry<C extends Component>(
  entries: readonly PageEntry[],
  instanceKey: string,
  component: C,
): EntryOf<C> | undefined {
  const found = entries.find((e) => e.instanceKey === instanceKey && e.componentId === component.componentId);
  return found as EntryOf<C> | undefined;
}

/** A reference read whole (not `{ id }` alone past the depth or on a cycle). */
export function isResolved<R extends { id: string }>(
  ref: R | null | undefined,
): ref is Extract<R, { fields: unknown }> {
  return ref != null && 'fields' in ref;
}
