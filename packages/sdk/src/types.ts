import type { Schemas } from '@folio/client';
import type { FieldDefinition, Fields } from './fields.js';

/**
 * The SDK's public types, taken from the generated API types (@folio/client): nothing about the wire
 * is restated here, only narrowed or combined. The one exception is in ./fields.ts: the field
 * declarations of contract §13, until the API's schemas of them reach the generated client.
 */

/** An entry as `GET /v1/content/:pageId` and the live stream give it. */
export type Entry = Schemas['Entry'];
/**
 * The body of `GET /v1/snapshot` (one locale's: `locale` names it in a project with locales), which
 * the CLI writes to a file for baking.
 */
export type Snapshot = Schemas['Snapshot'];
/**
 * The body of `GET /v1/snapshot?locale=*` (contract §14, §17: schema 2): every locale's content map
 * beside the objects (not localized). What `folio bake` writes in a project with locales. The API
 * documents it in prose only, so it is derived here from the one-locale snapshot.
 */
export type SnapshotAll = Omit<Snapshot, 'schema' | 'content' | 'locale'> & {
  schema: 2;
  defaultLocale: string;
  locales: Record<string, Snapshot['content']>;
};
/**
 * What `createFolio({ snapshot })` takes: a snapshot (one locale's, or the `*` document), or the
 * whole `{ data, error }` answer.
 */
export type SnapshotInput = Snapshot | SnapshotAll | { data: Snapshot | SnapshotAll; error: null };

/**
 * An entry of a page. Read from the API it is a whole `Entry`; read from a baked snapshot it has
 * `id`, `instanceKey`, `componentId` and `fields` (no versions, contract §3; a snapshot made before
 * contract §17 has no `id` either).
 */
export type PageEntry = Omit<Schemas['SnapshotEntry'], 'id'> &
  Partial<Omit<Entry, 'instanceKey' | 'componentId' | 'fields'>>;

/**
 * One component as `POST /v1/definitions/sync` takes it, its fields as contract §13 declares them
 * (the generated client's `SyncBody` still knows only flat fields of seven types).
 */
export type ComponentDefinition = Omit<Schemas['SyncBody']['components'][number], 'fields'> & {
  fields: FieldDefinition[];
};
/** What `register` takes: the wire's field array, or fields declared as `key → declaration`. */
export type ComponentInput = ComponentDefinition | (Omit<ComponentDefinition, 'fields'> & { fields: Fields });
export type SyncResult = Schemas['SyncResult'];

/** An object with its fields and collections; `updatedAt` is absent when read from a baked snapshot. */
export type FolioObject = Omit<Schemas['ObjectRecord'], 'updatedAt'> & { updatedAt?: string };

/** Any function that sends a Request: the global fetch, a runtime's own, or a test's counter. */
export type Fetch = (request: Request) => Promise<Response>;
