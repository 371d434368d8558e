import { createFolioClient } from '@folio/client';
import { bakedObjects, unwrapSnapshot } from './baked.js';
import { apiError, type ErrorBody, transportError } from './errors.js';
import { type LiveOptions, openLive } from './live.js';
import { registrar } from './register.js';
import { transport } from './transport.js';
import type {
  ComponentDefinition,
  Entry,
  Fetch,
  FolioObject,
  PageEntry,
  Snapshot,
  SnapshotInput,
  SyncResult,
} from './types.js';

export interface FolioOptions {
  /** Where Folio runs, e.g. `https://cms.example.com`. */
  url: string;
  /** The project's publishable key, `cms_pk_…` (public by design: it ships in the page). */
  key: string;
  /** A preview token, `cms_pv_…`: reads then show drafts (working copies) and ignore the snapshot. */
  previewToken?: string;
  /**
   * A snapshot to read from instead of the network (baked mode): the body of `GET /v1/snapshot`, as
   * the CLI writes it. Ignored while its `bakeEnabled` is false (the project's kill switch) and with a
   * preview token: reads then go to the API.
   */
  snapshot?: SnapshotInput;
  /** Another fetch (a runtime's own, a test's); the global one by default. */
  fetch?: Fetch;
  /** Time limit of one request, answer included, in ms (10,000). Live streams have none. */
  timeoutMs?: number;
  /** How often a read answered 429/503 is sent again (2), waiting at most `maxRetryWaitMs` (10,000) each time. */
  retries?: number;
  maxRetryWaitMs?: number;
  /** Failures nobody awaits: a register's, a live stream that stopped. `console.error` by default. */
  onError?: (error: unknown) => void;
}

export interface ReadOptions {
  signal?: AbortSignal;
}

export interface ObjectsOptions extends ReadOptions {
  /** Only these object types. */
  types?: string[];
  /** The draft overlay: needs a preview token (the publishable key alone is refused, 403). */
  draft?: boolean;
}

export interface Folio {
  /** Reads come from the snapshot given to createFolio (no network). */
  readonly baked: boolean;
  /** A preview token is set: reads show drafts. */
  readonly preview: boolean;
  /** Declares the components of a page; Folio creates a draft stub entry for each new one. */
  register(pageId: string, components: ComponentDefinition[]): Promise<SyncResult | null>;
  /** The entries of a page: published ones, or every working copy with a preview token. */
  page(pageId: string, options?: ReadOptions): Promise<PageEntry[]>;
  /** The entries of a page if they are known without a request (baked, or read before); else undefined. */
  peek(pageId: string): PageEntry[] | undefined;
  snapshot(options?: ReadOptions): Promise<Snapshot>;
  objects(options?: ObjectsOptions): Promise<FolioObject[]>;
  /** Follows a page's changes; returns the function that stops it. */
  live(
    pageId: string,
    onEntry: (entry: Entry) => void,
    onDeleted?: (id: string) => void,
    options?: LiveOptions,
  ): () => void;
}

/** What the generated client's calls resolve to, as far as unwrapping needs. */
type Result<T> =
  | { ok: true; notModified: false; data: T }
  | { ok: true; notModified: true }
  | { ok: false; status: number; error: ErrorBody; response: Response };

/**
 * Composes the pieces: the generated client (typed paths, the envelope unwrapped, If-None-Match
 * revalidation) over the transport (timeouts, retries), the register batcher, the baked snapshot and
 * the live stream. Creating it sends nothing; nothing runs at import.
 */
export function createFolio(options: FolioOptions): Folio {
  const url = options.url.replace(/\/+$/, '');
  const rawFetch: Fetch = options.fetch ?? ((request) => fetch(request));
  const onError = options.onError ?? ((error: unknown) => console.error(error));
  const previewToken = options.previewToken;
  const preview = previewToken ? { 'x-cms-preview': previewToken } : undefined;
  const given = options.snapshot ? unwrapSnapshot(options.snapshot) : undefined;
  const baked = given?.bakeEnabled && !previewToken ? given : undefined;

  // revalidate: an unchanged page, snapshot or object list costs one request answered 304. Preview
  // answers are `no-store` and are never kept.
  const client = createFolioClient({
    baseUrl: url,
    credentials: { publishableKey: options.key },
    revalidate: true,
    fetch: transport({
      fetch: rawFetch,
      timeoutMs: options.timeoutMs ?? 10_000,
      retries: options.retries ?? 2,
      maxRetryWaitMs: options.maxRetryWaitMs ?? 10_000,
    }),
  });

  /** Unwraps a client call: the data, or a FolioError. */
  async function call<T>(request: () => Promise<Result<T>>): Promise<T> {
    let result: Result<T>;
    try {
      result = await request();
    } catch (error) {
      throw transportError(error);
    }
    if (!result.ok) throw apiError(result);
    // The client answers a 304 with its kept copy; a bare 304 would mean it kept none (cannot happen
    // for requests it made conditional itself).
    if (result.notModified) throw new Error('Folio answered 304 to a request without If-None-Match.');
    return result.data;
  }

  const pages = new Map<string, PageEntry[]>();
  const reading = new Map<string, Promise<PageEntry[]>>();

  function readPage(pageId: string, signal?: AbortSignal): Promise<Entry[]> {
    return call(() =>
      client.GET('/v1/content/{id}', { params: { path: { id: pageId } }, headers: preview, signal }),
    );
  }

  const register = registrar(
    (pageId, components) =>
      call(() =>
        client.POST('/v1/definitions/sync', { body: { pageId, components } }),
      ) as Promise<SyncResult>,
    onError,
  );

  return {
    baked: baked !== undefined,
    preview: preview !== undefined,
    register,

    page(pageId, { signal } = {}) {
      if (baked) return Promise.resolve(baked.content[pageId] ?? []);
      // Concurrent reads of one page share one request (several components mounting at once); a
      // read with its own AbortSignal goes alone, so aborting it aborts nobody else's.
      const shared = signal ? undefined : reading.get(pageId);
      if (shared) return shared;
      const pending = readPage(pageId, signal).then((entries) => {
        pages.set(pageId, entries);
        return entries;
      });
      if (!signal) {
        reading.set(pageId, pending);
        pending.finally(() => reading.delete(pageId)).catch(() => {});
      }
      return pending;
    },

    peek(pageId) {
      return baked ? (baked.content[pageId] ?? []) : pages.get(pageId);
    },

    snapshot({ signal } = {}) {
      if (baked) return Promise.resolve(baked);
      return call(() => client.GET('/v1/snapshot', { signal }));
    },

    objects({ types, draft, signal } = {}) {
      if (baked && !draft) return Promise.resolve(bakedObjects(baked, types));
      const query = { ...(types && { types: types.join(',') }), ...(draft && { draft }) };
      return call(() => client.GET('/v1/objects', { params: { query }, headers: preview, signal }));
    },

    live(pageId, onEntry, onDeleted, liveOptions) {
      const context = {
        url,
        headers: { 'x-cms-key': options.key, ...preview },
        fetch: rawFetch,
        currentIds: async (id: string) => (await readPage(id)).map((entry) => entry.id),
        onError,
      };
      return openLive(context, pageId, onEntry, onDeleted, liveOptions);
    },
  };
}
