/**
 * @folio/sdk: a site's side of Folio. `createFolio({ url, key })`, then `register` components (Folio
 * creates their stub entries), read a `page`, the `snapshot` or `objects`, and follow a page `live`.
 * `createFolio({ locale })` reads one language (contract §14). Framework-free: it needs only `fetch`, so it runs in browsers, Node >= 20 and edge runtimes.
 */
export { bakedObjects, unwrapSnapshot } from './baked.js';
export { stegaClean } from './clean.js';
export { FolioError, type FolioErrorCode } from './errors.js';
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
  type Field,
  type FieldBody,
  type FieldDefinition,
  type Fields,
  type FieldType,
  fieldsOf,
  findEntry,
  type Item,
  image,
  isResolved,
  json,
  type Link,
  link,
  list,
  type NestedFields,
  number,
  object,
  type Pattern,
  type Reference,
  type ResolvedEntry,
  reference,
  richtext,
  type SimpleType,
  select,
  text,
  url,
  type ValueOf,
  type ValuesOf,
} from './fields.js';
export {
  createFolio,
  type Folio,
  type FolioOptions,
  type LocaleOptions,
  type ObjectsOptions,
  type PageOptions,
  type ReadOptions,
  type SnapshotOptions,
} from './folio.js';
export type { LiveOptions } from './live.js';
export { editAttributes } from './place.js';
export { type SseEvent, sseParser } from './sse.js';
export type {
  ComponentDefinition,
  ComponentInput,
  Entry,
  Fetch,
  FolioObject,
  PageEntry,
  Snapshot,
  SnapshotAll,
  SnapshotInput,
  SyncResult,
} from './types.js';
export type {
  BridgeMessage,
  BridgeVersion,
  EditorMessage,
  ItemPath,
  MessageBody,
  SiteMessage,
} from './visual/protocol.js';
