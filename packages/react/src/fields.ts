import type { ComponentDefinition, FieldType } from '@folio/sdk';

/**
 * A component's fields as `useFolio` declares them: key → type, e.g. `{ title: 'text', price: 'number' }`.
 * The same declaration is what gets registered and what types the values the hook returns.
 */
export type FieldDeclaration = Record<string, FieldType>;

/** The value a field of that type holds: `number`, `boolean`, `unknown` for `json`, else a string. */
export type FieldValue<T extends FieldType> = T extends 'number'
  ? number
  : T extends 'boolean'
    ? boolean
    : T extends 'json'
      ? unknown
      : string;

/** The values of declared fields; each is undefined until an editor fills it. */
export type FieldValues<D extends FieldDeclaration> = {
  readonly [K in keyof D]: FieldValue<D[K]> | undefined;
};

/** The definition sent to Folio for one instance of a component. */
export function definitionOf(
  instanceKey: string,
  componentId: string,
  fields: FieldDeclaration,
): ComponentDefinition {
  return { componentId, instanceKey, fields: Object.entries(fields).map(([key, type]) => ({ key, type })) };
}
