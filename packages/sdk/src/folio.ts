import { createFolioClient, type Schemas } from '@folio/client';
import { type Baked, bakedLocale, bakedObjects, isSnapshotAll, unwrapSnapshot } from './baked.js';
import { apiError, type ErrorBody, transportError } from './errors.js';
import { fieldsOf } from './fields.js';
import { type LiveOptions, openLive } from './live.js';
import { resolveBaked } from './references.js';
import { registrar } from './register.js';
import { transport } from './transport.js';
import type {
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
import type { Session } from './visual/session.js';

export interface FolioOptions {
  /** Where Folio runs, e.g. `https://cms.example.com`. */
  url: string;
  /** The project's publishable key, `cms_pk_…` (public by design: it ships in the page). */
  key: string;
  /** A preview token, `cms_pv_…`: reads then show drafts (working copies) and ignore the snapshot. */
  previewToken?: string;
  /**
   * The language to read (contract §14): one of the project's locale codes, matched
   * case-insensitively (`fr-ca` is `fr-CA`). Every read, live stream and preview then asks for it
   * (`?locale=`), values missing in it coming through its fallback chain; baked reads take that
   * locale's content from the snapshot. Default: none sent, which is the project's default locale,
   * and the only choice in a project without locales (where any `locale` is a 400). `register` is
   * never localized: declarations are shared by every locale.
   */
  locale?: string;
  /**
   * The origin of the dashboard that may frame this site for visual editing (default: the origin of
   * `url`, where the dashboard is served). Only messages from it, sent by the parent window, can
   * start a preview; the SDK posts only to it.
   */
  editorOrigin?: string;
  /**
   * A snapshot to read from instead of the network (baked mode): the body of `GET /v1/snapshot`, as
   * the CLI writes it. Ignored while its `bakeEnabled` is false (the project's kill switch) and with a
   * preview token: reads then go to the API. In a project with locales `folio bake` writes the
   * `?locale=*` document (every locale's content): reads take the asked locale's content from it. A
   * one-locale snapshot (`folio bake --locale fr`) serves its own locale only: a read in another is a
   * FolioError `validation_failed`.
   */
  snapshot?: SnapshotInput;
  /**
   * The site's components (what `component()` returns, or the wire's form). Baked mode resolves
   * references from the snapshot by their declarations, which the snapshot does not carry
   * (`register` adds the components it is given too); an entry of a component not declared here is
   * read with its stored values.
   */
  components?: readonly { componentId: string; fields: ComponentInput['fields'] }[];
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

export interface LocaleOptions {
  /** This read's language, instead of createFolio's `locale`. */
  locale?: string;
}

export interface SnapshotOptions extends ReadOptions, LocaleOptions {}

export interface PageOptions extends ReadOptions, LocaleOptions {
  /** Levels of references to resolve (0-3, default 1; contract §13): the API's `?depth=`. */
  depth?: number;
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
  /** A preview token is set (given, or handed over by the dashboard at runtime): reads show drafts. */
  readonly preview: boolean;
  /**
   * Calls `listener` when a preview token is set at runtime (the dashboard's visual editor started a
   * session, or renewed its token); returns what unsubscribes. For bindings that must switch to
   * following the page live.
   */
  onPreview(listener: () => void): () => void;
  /**
   * Says which page this is. In the dashboard's preview pane (framed), it offers the editor a
   * visual-editing session (README, "Visual editing"); elsewhere it does nothing. page(), register() and live() call
   * it themselves; @folio/react's FolioProvider calls it.
   */
  editable(pageId: string): void;
  /**
   * Declares the components of a page; Folio creates a draft stub entry for each new one. Fields are
   * the wire's `[{ key, type, ...options }]` or a record of declarations (`{ title: text(), … }`).
   */
  register(pageId: string, components: readonly ComponentInput[]): Promise<SyncResult | null>;
  /** The entries of a page: published ones, or every working copy with a preview token. */
  page(pageId: string, options?: PageOptions): Promise<PageEntry[]>;
  /**
   * The entries of a page if they are known without a request (baked, or read before); else
   * undefined. `locale`: as page()'s, createFolio's by default.
   */
  peek(pageId: string, locale?: string): PageEntry[] | undefined;
  /** The `?locale=*` document: every locale's content (baked: when the baked file is it). */
  snapshot(options: SnapshotOptions & { locale: '*' }): Promise<SnapshotAll>;
  /** One locale's snapshot (createFolio's `locale` by default). */
  snapshot(options?: SnapshotOptions): Promise<Snapshot>;
  objects(options?: ObjectsOptions): Promise<FolioObject[]>;
  /** Follows a page's changes; returns the function that stops it. */
  live(
    pageId: string,
    onEntry: (entry: Entry) => void,
    onDeleted?: (id: string) => void,
    options?: LiveOptions,
  ): () => void;
}

/** A component with its fields as the wire's array. */
const definitionOf = (component: ComponentInput): ComponentDefinition =>
  Array.isArray(component.fields)
    ? (component as ComponentDefinition)
    : { ...component, fields: fieldsOf(component.fields) };

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
  // Both change when the dashboard hands over a token (start() below): read them at each use.
  let preview = options.previewToken ? { 'x-cms-preview': options.previewToken } : undefined;
  const given = options.snapshot ? unwrapSnapshot(options.snapshot) : undefined;
  let baked: Baked | undefined = given?.bakeEnabled && !preview ? given : undefined;

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
  /** Declarations by componentId, for baked mode's references (createFolio's `components`, then `register`'s). */
  const declared = new Map<string, ComponentDefinition['fields']>();
  for (const { componentId, fields } of options.components ?? [])
    declared.set(componentId, Array.isArray(fields) ? fields : fieldsOf(fields));
  const bakedPage = (from: Baked, pageId: string, locale: string | undefined, depth = 1) =>
    resolveBaked(bakedLocale(from, locale), pageId, depth, declared);

  function readPage(
    pageId: string,
    signal?: AbortSignal,
    depth?: number,
    locale: string | undefined = options.locale,
  ): Promise<Entry[]> {
    return call(() =>
      client.GET('/v1/content/{id}', {
        // Undefined parameters are left out of the query string.
        params: { path: { id: pageId }, query: { depth, locale } },
        headers: preview,
        signal,
      }),
    );
  }

  const registerBatched = registrar(
    (pageId, components) =>
      call(() =>
        // The client's SyncBody predates nested declarations (contract §13); the wire takes them.
        client.POST('/v1/definitions/sync', { body: { pageId, components } as Schemas['SyncBody'] }),
      ) as Promise<SyncResult>,
    onError,
  );

  // The visual-editing session (README, "Visual editing"). Its state lives here, its code in ./visual/, loaded once.
  let announced = false;
  let session: Session | undefined;
  const previewListeners = new Set<() => void>();
  /** Open live streams: each restarts with the token a session sets. */
  const restarts = new Set<() => void>();
  const sinks = new Map<(entry: Entry) => void, string>();
  const fields = new Map<string, ComponentDefinition['fields']>();

  const folio: Folio = {
    get baked() {
      return baked !== undefined;
    },
    get preview() {
      return preview !== undefined;
    },
    onPreview(listener) {
      previewListeners.add(listener);
      return () => previewListeners.delete(listener);
    },
    editable(pageId) {
      if (announced || typeof window === 'undefined' || window.parent === window) return;
      announced = true;
      import('./visual/bridge.js').then(
        ({ openBridge }) =>
          openBridge({
            // Resolved here, in the browser only: a relative `url` (a same-origin proxy) is valid. An
            // origin given with a path or a trailing slash still compares equal to event.origin.
            editorOrigin: new URL(options.editorOrigin ?? url, location.href).origin,
            pageId,
            sinks,
            fields,
            begin(token, next) {
              session = next;
              preview = { 'x-cms-preview': token };
              baked = undefined;
              reading.clear(); // a read in flight without the token must not answer for one with it
              for (const restart of restarts) restart();
              for (const listener of previewListeners) listener();
            },
            page: folio.page,
            onError,
          }),
        onError,
      );
    },
    register(pageId, given) {
      folio.editable(pageId);
      const components = given.map(definitionOf);
      for (const component of components) {
        fields.set(component.componentId, component.fields);
        declared.set(component.componentId, component.fields);
      }
      return registerBatched(pageId, components);
    },

    page(pageId, { signal, depth, locale = options.locale } = {}) {
      folio.editable(pageId);
      // Baked: a locale the file lacks rejects (bakedLocale's FolioError) rather than throw.
      if (baked) return Promise.resolve(baked).then((from) => bakedPage(from, pageId, locale, depth));
      // Concurrent reads of one page in one locale share one request (several components mounting
      // at once); a read with its own AbortSignal or depth goes alone, so aborting it aborts nobody else's.
      const alone = signal !== undefined || depth !== undefined;
      // Pages read and reads in flight are kept per locale (page ids hold no newline).
      const key = `${locale}\n${pageId}`;
      const shared = alone ? undefined : reading.get(key);
      if (shared) return shared;
      const pending = readPage(pageId, signal, depth, locale).then((entries) => {
        if (!alone) pages.set(key, entries);
        return session ? entries.map(session.view) : entries;
      });
      if (!alone) {
        reading.set(key, pending);
        pending.finally(() => reading.delete(key)).catch(() => {});
      }
      return pending;
    },

    peek(pageId, locale = options.locale) {
      try {
        return baked ? bakedPage(baked, pageId, locale) : pages.get(`${locale}\n${pageId}`);
      } catch {
        // A locale the baked file lacks: undefined here, page() says why.
      }
    },

    snapshot({ signal, locale = options.locale }: SnapshotOptions = {}) {
      if (baked) {
        // `*`: the file itself when it is the document of every locale; else bakedLocale's FolioError.
        return Promise.resolve(baked).then((from) =>
          locale === '*' && isSnapshotAll(from) ? from : bakedLocale(from, locale),
        ) as Promise<Snapshot & SnapshotAll>;
      }
      // The client types one locale's snapshot; `*` answers the document of every locale (schema 2).
      return call(() =>
        client.GET('/v1/snapshot', {
          params: { query: { locale } },
          signal,
        }),
      ) as Promise<Snapshot & SnapshotAll>;
    },

    objects({ types, draft, signal } = {}) {
      if (baked && !draft) return Promise.resolve(bakedObjects(baked, types));
      const query = { ...(types && { types: types.join(',') }), ...(draft && { draft }) };
      return call(() => client.GET('/v1/objects', { params: { query }, headers: preview, signal }));
    },

    live(pageId, onEntry, onDeleted, liveOptions) {
      folio.editable(pageId);
      const sink = (entry: Entry) => onEntry(session ? session.view(entry) : entry);
      const locale = liveOptions?.locale ?? options.locale;
      const open = () =>
        openLive(
          {
            url,
            headers: { 'x-cms-key': options.key, ...preview },
            fetch: rawFetch,
            locale,
            currentIds: async (id: string) =>
              (await readPage(id, undefined, undefined, locale)).map((entry) => entry.id),
            onError,
          },
          pageId,
          sink,
          onDeleted,
          liveOptions,
        );
      let stop = open();
      const restart = () => {
        stop();
        stop = open();
      };
      restarts.add(restart);
      sinks.set(sink, pageId);
      return () => {
        restarts.delete(restart);
        sinks.delete(sink);
        stop();
      };
    },
  };
  return folio;
}
