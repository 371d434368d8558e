/**
 * @folio/react: `<FolioProvider folio pageId>` around a page, `useFolio(instanceKey, { componentId,
 * fields })` in each editable component. A thin layer over @folio/sdk; works in server rendering
 * (baked snapshot or prefetched entries) and in the browser (live with a preview token).
 */
export type { FieldDeclaration, FieldValue, FieldValues } from './fields.js';
export { FolioProvider, type FolioProviderProps } from './provider.js';
export { useFolio } from './use-folio.js';
