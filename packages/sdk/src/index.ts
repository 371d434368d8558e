/**
 * @folio/sdk: a site's side of Folio. `createFolio({ url, key })`, then `register` components (Folio
 * creates their stub entries), read a `page`, the `snapshot` or `objects`, and follow a page `live`.
 * Framework-free: it needs only `fetch`, so it runs in browsers, Node >= 20 and edge runtimes.
 */
export { bakedObjects, unwrapSnapshot } from './baked.js';
export { stegaClean } from './clean.js';
export { FolioError, type FolioErrorCode } from './errors.js';
export {
  createFolio,
  type Folio,
  type FolioOptions,
  type ObjectsOptions,
  type ReadOptions,
} from './folio.js';
export type { LiveOptions } from './live.js';
export { type SseEvent, sseParser } from './sse.js';
export type {
  ComponentDefinition,
  Entry,
  Fetch,
  FieldType,
  FolioObject,
  PageEntry,
  Snapshot,
  SnapshotInput,
  SyncResult,
} from './types.js';
