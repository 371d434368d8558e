/** A page's entries and their history, for the history screen beside the editor. */
export {
  type ChangedBy,
  currentVersionOf,
  entryKeys,
  isConflict,
  pageEntriesQuery,
  type Site,
  siteHeaders,
  useDefinitions,
  useHistory,
  usePageEntries,
  whoChanged,
} from './api/entries.api';
export { applySaved } from './api/entry-mutations';
export { type EntrySummary, useChosenEntries } from './api/search.api';
export { ConflictAlert } from './components/ConflictAlert';
export { blocksOf, type Decl, labelOf, nestedOf } from './components/structured/decl';
export { type FieldType, isFieldType, isLinkable, sameValue } from './lib/fields';
export { type Locales, localeCodes } from './lib/locale-choice';
export { referenceIds } from './lib/readable-text';
