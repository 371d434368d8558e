import { type ChangeBus, FLUSH_ALL, pageKey, splitPageKey, TOPICS } from '../../db/dialect/change-bus.js';
import { rateLimited } from '../../shared/errors.js';
import type { Entry, PageViews } from '../content/index.js';

/**
 * Live updates (contract §10): the open Server-Sent Events streams of this instance, grouped by page.
 *
 * A change anywhere reaches every instance through the change bus (LISTEN/NOTIFY on PostgreSQL):
 * topic `page` for publishes and unpublishes, `draft` for working-copy changes. On either, the page
 * is loaded once (one query, both views) and each stream of the page gets what differs from what it
 * was last sent: a visitor stream compares published views, so a draft save sends it nothing. Loads
 * of one page never overlap: a change during a load marks the page dirty and one more load follows.
 * Rejected: a query per stream (1,000 streams on a page would be 1,000 queries per publish), and
 * sending the change itself (the bus carries only "page X changed"; its payload limit and a lost
 * notification would make streams drift, while a reload always converges).
 *
 * Slow readers: each stream's unsent bytes are measured after every write; past maxBufferBytes the
 * stream is closed (its connection destroyed) rather than buffered or thinned out. A client that
 * reconnects gets the current state first, so closing loses nothing, and memory per stream is bounded.
 *
 * Fair share (contract §16): one client address holds at most maxStreamsPerClient streams of a project
 * on this instance, so one visitor cannot take the project's maxStreamsPerProject (which stays as the
 * last guard). Both counts are of this instance only: counting across instances would need a shared
 * store and a round trip per open, and each instance's memory is what the caps protect.
 *
 * Preview streams end with their token: at its expiry (a timer), and when tokens of the project are
 * ended (topic `preview` on the change bus, from any instance), after which each preview stream of
 * the project asks whether its token still works (one query for all of them).
 */

/** Where a stream's bytes go (the HTTP response); lets the hub measure and end it. */
export interface LiveSink {
  write(chunk: string): void;
  /** Bytes written but not yet handed to the socket. */
  bufferedBytes(): number;
  /** A clean end (shutdown). Resolves when the response has finished or was torn down. */
  end(): Promise<void>;
  /** Tear the connection down now (slow reader). */
  destroy(): void;
}

export interface LiveOptions {
  /**
   * The page as each kind of caller sees it (the content module's pageViews); `drafts`: a stream
   * shows working copies, so the editor view (with its `problems`) is needed.
   */
  views(
    projectId: string,
    pageId: string,
    drafts: boolean,
    depth: number,
    /** The locale read (contract §14): a project code, undefined for the default; `fallback` false for `?fallback=false`. */
    locale?: string,
    fallback?: boolean,
  ): Promise<PageViews>;
  /** Which of these preview tokens (ids) still work (the preview module's stillLive). */
  previewStillLive(ids: string[]): Promise<Set<string>>;
  heartbeatMs: number;
  maxStreamsPerProject: number;
  /** Streams of one project that one client address may hold on this instance. */
  maxStreamsPerClient: number;
  maxBufferBytes: number;
  log: { warn(obj: unknown, msg?: string): void };
  /** Delay before retrying a page load that failed (database briefly unreachable). */
  retryMs?: number;
}

/** Who opens a stream: what it sees, where it comes from, and the preview token it holds, if any. */
export interface LiveViewer {
  drafts: boolean;
  /** Which view of the page it follows (PageViews): a visitor's, a member's, a preview token's. */
  view: LiveView;
  /** Levels of references resolved (contract §13: 0-3, default 1). */
  depth?: number;
  /** The locale it reads (contract §14): a project code; undefined: the default locale (or none). */
  locale?: string;
  /** False for `?fallback=false`: the locale's own published copies only. */
  fallback?: boolean;
  /** The client's address (request.ip: CMS_TRUST_PROXY decides whether X-Forwarded-For counts). */
  client: string;
  /** The preview token that authorised it: the stream ends when the token expires or is ended. */
  preview?: { id: string; expiresAt: string };
}

/** A visitor's view, a member's (stored reference ids) or a preview token's (references resolved). */
export type LiveView = 'visitor' | 'editor' | 'preview';

interface Stream {
  projectId: string;
  drafts: boolean;
  view: LiveView;
  /** The key of its client's count (project and address). */
  clientKey: string;
  previewId: string | null;
  sink: LiveSink;
  /** Entry id → the JSON last sent for it. */
  sent: Map<string, string>;
  watch: PageWatch;
}

interface PageWatch {
  /** Its key in the hub: the page, the depth its references are resolved to and its locale (watchKey). */
  key: string;
  /** The page's key on the change bus. */
  page: string;
  depth: number;
  locale: string | undefined;
  fallback: boolean;
  /**
   * The locales whose published copies its visitor view reads (its chain, from the last load); null
   * in a project without locales. A publish in another locale changes none of its visitor streams.
   */
  chain: readonly string[] | null;
  /**
   * Page keys of the entries its last load read to resolve references (contract §13): a change to
   * one of them reloads this page too, so its streams show a referenced entry's publish at once.
   */
  reads: Set<string>;
  projectId: string;
  pageId: string;
  streams: Set<Stream>;
  loading: boolean;
  dirty: boolean;
}

/** A page followed at a depth of references and in a locale; the default depth's key without a locale is the plain page key. */
const watchKey = (key: string, depth: number, locale?: string, fallback = true) =>
  `${depth === 1 ? key : `${key}\u0000${depth}`}${locale === undefined ? '' : `\u0001${locale}${fallback ? '' : '\u0001'}`}`;

export const RETRY_AFTER_SECONDS = 5;
export const TOO_MANY_STREAMS = 'Too many open live streams for this project on this server.';
export const TOO_MANY_CLIENT_STREAMS =
  'Too many open live streams from your address for this project on this server; close one first.';

/** One SSE event; JSON never holds a raw line break, so `data` is one line. */
export const sseEvent = (event: string, json: string): string => `event: ${event}\ndata: ${json}\n\n`;
export const SSE_HEARTBEAT = ': keep-alive\n\n';

export function createLiveHub(bus: ChangeBus, options: LiveOptions) {
  const watches = new Map<string, PageWatch>();
  const perProject = new Map<string, number>();
  const perClient = new Map<string, number>();
  const previews = new Set<Stream>();
  let open = 0;
  let heartbeat: NodeJS.Timeout | null = null;
  let closed = false;

  function write(stream: Stream, chunk: string): void {
    if (!stream.watch.streams.has(stream)) return;
    stream.sink.write(chunk);
    if (stream.sink.bufferedBytes() > options.maxBufferBytes) {
      options.log.warn(
        {
          projectId: stream.projectId,
          pageId: stream.watch.pageId,
          bufferedBytes: stream.sink.bufferedBytes(),
        },
        'live: closed a stream whose reader is too slow',
      );
      remove(stream);
      stream.sink.destroy();
    }
  }

  function remove(stream: Stream): void {
    const watch = stream.watch;
    if (!watch.streams.delete(stream)) return;
    if (watch.streams.size === 0) watches.delete(watch.key);
    countDown(perProject, stream.projectId);
    countDown(perClient, stream.clientKey);
    previews.delete(stream);
    open -= 1;
    if (open === 0 && heartbeat) {
      clearInterval(heartbeat);
      heartbeat = null;
    }
  }

  /** Sends each stream what changed since its last event, from one load of the page. */
  function fanOut(watch: PageWatch, views: PageViews): void {
    // Serialised once per view, not per stream.
    const json = (entries: Entry[]) => new Map(entries.map((e) => [e.id, JSON.stringify(e)]));
    const streams = [...watch.streams];
    const serialized = new Map<LiveView, Map<string, string> | null>();
    const viewOf = (view: LiveView) => {
      let known = serialized.get(view);
      if (known === undefined) {
        const entries = views[view];
        known = entries ? json(entries) : null;
        serialized.set(view, known);
      }
      return known;
    };
    for (const stream of streams) {
      const now = viewOf(stream.view);
      // Loaded without the drafts views: a drafts stream joined during the load, which loads again.
      if (!now) continue;
      let chunk = '';
      for (const [id, text] of now) {
        if (stream.sent.get(id) !== text) chunk += sseEvent('entry', text);
      }
      for (const id of stream.sent.keys()) {
        if (!now.has(id)) chunk += sseEvent('deleted', JSON.stringify({ id }));
      }
      stream.sent = now;
      if (chunk) write(stream, chunk);
    }
  }

  async function refresh(watch: PageWatch): Promise<void> {
    if (watch.loading) {
      watch.dirty = true;
      return;
    }
    watch.loading = true;
    try {
      do {
        watch.dirty = false;
        const drafts = [...watch.streams].some((s) => s.drafts);
        const views = await options.views(
          watch.projectId,
          watch.pageId,
          drafts,
          watch.depth,
          watch.locale,
          watch.fallback,
        );
        watch.reads = new Set([...views.pages].map((p) => pageKey(watch.projectId, p)));
        watch.chain = views.chain;
        if (!closed) fanOut(watch, views);
      } while (watch.dirty && watch.streams.size > 0 && !closed);
    } catch (err) {
      // The change is not lost: the page is loaded again shortly and every stream converges.
      options.log.warn({ err, pageId: watch.pageId }, 'live: could not load a page; retrying');
      setTimeout(() => {
        if (watches.get(watch.key) === watch) void refresh(watch);
      }, options.retryMs ?? 1000).unref();
    } finally {
      watch.loading = false;
    }
  }

  /** Ends the preview streams (of one project, or all) whose token no longer works. */
  async function checkPreviews(streams: Stream[]): Promise<void> {
    if (streams.length === 0 || closed) return;
    let live: Set<string>;
    try {
      live = await options.previewStillLive([...new Set(streams.map((s) => s.previewId as string))]);
    } catch (err) {
      options.log.warn({ err }, 'live: could not check preview tokens; retrying');
      setTimeout(() => void checkPreviews(streams), options.retryMs ?? 1000).unref();
      return;
    }
    for (const stream of streams) {
      if (live.has(stream.previewId as string) || !stream.watch.streams.has(stream)) continue;
      remove(stream);
      void stream.sink.end();
    }
  }

  bus.subscribe((topic, key) => {
    if (topic === FLUSH_ALL) {
      // Notifications may have been lost while the bus reconnected: reload every watched page, and
      // ask again for every preview stream's token.
      for (const watch of watches.values()) void refresh(watch);
      void checkPreviews([...previews]);
      return;
    }
    if (topic === TOPICS.preview) {
      void checkPreviews([...previews].filter((s) => s.projectId === key));
      return;
    }
    if (topic !== TOPICS.page && topic !== TOPICS.draft) return;
    // A change in one locale (contract §14) reaches the streams that read it: visitors whose chain holds
    // it, and every drafts stream (an editor's `locales` shows each locale's status).
    const { page, locale } = splitPageKey(key);
    const touched = (watch: PageWatch) =>
      locale === undefined ||
      watch.chain === null ||
      watch.chain.includes(locale) ||
      [...watch.streams].some((s) => s.drafts);
    // The page's own watches, and those whose references read an entry of it (one loop over this instance's watched pages).
    for (const watch of watches.values())
      if ((watch.page === page || watch.reads.has(page)) && touched(watch)) void refresh(watch);
  });

  return {
    /**
     * Adds a stream for a page; it first receives every entry the caller sees now, then changes.
     * Over the client's or the project's limit on this instance: 429 (nothing is written to the
     * sink). Returns what to call when the client goes away.
     */
    open(projectId: string, pageId: string, viewer: LiveViewer, sink: LiveSink): () => void {
      if (closed) throw rateLimited(RETRY_AFTER_SECONDS, 'The server is shutting down; reconnect shortly.');
      const clientKey = `${projectId} ${viewer.client}`;
      // The client's own cap first: a client at its cap is told so even when the project is full too.
      if ((perClient.get(clientKey) ?? 0) >= options.maxStreamsPerClient) {
        throw rateLimited(RETRY_AFTER_SECONDS, TOO_MANY_CLIENT_STREAMS);
      }
      if ((perProject.get(projectId) ?? 0) >= options.maxStreamsPerProject) {
        throw rateLimited(RETRY_AFTER_SECONDS, TOO_MANY_STREAMS);
      }
      const depth = viewer.depth ?? 1;
      const fallback = viewer.fallback ?? true;
      const page = pageKey(projectId, pageId);
      const key = watchKey(page, depth, viewer.locale, fallback);
      let watch = watches.get(key);
      if (!watch) {
        watch = {
          key,
          page,
          depth,
          locale: viewer.locale,
          fallback,
          chain: null,
          reads: new Set(),
          projectId,
          pageId,
          streams: new Set(),
          loading: false,
          dirty: false,
        };
        watches.set(key, watch);
      }
      const previewId = viewer.preview?.id ?? null;
      const stream: Stream = {
        projectId,
        drafts: viewer.drafts,
        view: viewer.view,
        clientKey,
        previewId,
        sink,
        sent: new Map(),
        watch,
      };
      watch.streams.add(stream);
      countUp(perProject, projectId);
      countUp(perClient, clientKey);
      open += 1;
      heartbeat ??= setInterval(() => {
        for (const w of watches.values()) for (const s of [...w.streams]) write(s, SSE_HEARTBEAT);
      }, options.heartbeatMs).unref();
      // The new stream has been sent nothing, so the next load sends it the whole page. One load
      // serves every stream that opens while it runs.
      void refresh(watch);
      // A preview stream must not outlive its token: it would keep showing drafts after a 401.
      let expiry: NodeJS.Timeout | null = null;
      if (viewer.preview) {
        previews.add(stream);
        expiry = setTimeout(
          () => {
            remove(stream);
            void sink.end();
          },
          Math.max(0, Date.parse(viewer.preview.expiresAt) - Date.now()),
        ).unref();
        // The token was checked before this stream was added: an end announced in between would have
        // missed it, so ask once more now (after the end's commit, the check sees it).
        void checkPreviews([stream]);
      }
      return () => {
        if (expiry) clearTimeout(expiry);
        remove(stream);
      };
    },

    /** Open streams on this instance (tests, the bench). */
    get size(): number {
      return open;
    },

    /** Ends every stream cleanly (app shutdown), so closing the server does not wait on them. */
    async close(): Promise<void> {
      closed = true;
      const streams = [...watches.values()].flatMap((w) => [...w.streams]);
      for (const s of streams) remove(s);
      await Promise.all(streams.map((s) => s.sink.end()));
    },
  };
}

function countUp(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** Drops the key at zero, so the maps hold only clients and projects with open streams. */
function countDown(counts: Map<string, number>, key: string): void {
  const count = (counts.get(key) ?? 1) - 1;
  if (count <= 0) counts.delete(key);
  else counts.set(key, count);
}

export type LiveHub = ReturnType<typeof createLiveHub>;
