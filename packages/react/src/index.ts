/**
 * @folio/react: `<FolioProvider folio pageId>` around a page, `useFolio(instanceKey, { componentId,
 * fields })` in each editable component. A thin layer over @folio/sdk; works in server rendering
 * (baked snapshot or prefetched entries) and in the browser (live with a preview token).
 */

// The SDK's field builders and value types, so a React site declares its fields from one import.
export {
  type Block,
  block,
  blocks,
  boolean,
  type Component,
  color,
  component,
  date,
  datetime,
  type EntryOf,
  image,
  isResolved,
  json,
  type Link,
  link,
  list,
  number,
  object,
  type Reference,
  type ResolvedEntry,
  reference,
  richtext,
  select,
  text,
  url,
  type ValuesOf,
} from '@folio/sdk';
export type { FieldDeclaration, FieldValue, FieldValues } from './fields.js';
export { FolioProvider, type FolioProviderProps } from './provider.js';
export { useFolio } from './use-folio.js';
