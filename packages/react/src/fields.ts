import { type ComponentDefinition, type Fields, fieldsOf, type ValueOf, type ValuesOf } from '@folio/sdk';

/**
 * A component's fields as `useFolio` declares them: key → a type name or a builder's declaration
 * (@folio/sdk's `text`, `select`, `list`, `reference`…), e.g. `{ title: 'text', variant:
 * select(['light', 'dark']) }`. The same declaration is what gets registered and what types the
 * values the hook returns.
 */
export type FieldDeclaration = Fields;

/** The value a field of that declaration holds (`'number'` → `number`, `list(…)` → its items…). */
export type FieldValue<T> = ValueOf<T>;

/** The values of declared fields; each is undefined until an editor fills it, unless `required`. */
export type FieldValues<D extends FieldDeclaration> = ValuesOf<D>;

/** The definition sent to Folio for one instance of a component. */
export function definitionOf(
  instanceKey: string,
  componentId: string,
  fields: FieldDeclaration,
): ComponentDefinition {
  return { componentId, instanceKey, fields: fieldsOf(fields) };
}
