import { type ChangeBus, FLUSH_ALL, pageKey, TOPICS } from '../../db/dialect/change-bus.js';
import { rateLimited } from '../../shared/errors.js';
import type { Entry } from '../content/content.service.js';
import type { PageViews } from '../content/page-views.js';

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
  views(projectId: string, pageId: string, drafts: boolean): Promise<PageViews>;
  heartbeatMs: number;
  maxStreamsPerProject: number;
  maxBufferBytes: number;
  log: { warn(obj: unknown, msg?: string): void };
  /** Delay before retrying a page load that failed (database briefly unreachable). */
  retryMs?: number;
}

interface Stream {
  projectId: string;
  drafts: boolean;
  sink: LiveSink;
  /** Entry id → the JSON last sent for it. */
  sent: Map<string, string>;
  watch: PageWatch;
}

interface PageWatch {
  projectId: string;
  pageId: string;
  streams: Set<Stream>;
  loading: boolean;
  dirty: boolean;
}

export const RETRY_AFTER_SECONDS = 5;
export const TOO_MANY_STREAMS = 'Too many open live streams for this project on this server.';

/** One SSE event; JSON never holds a raw line break, so `data` is one line. */
export const sseEvent = (event: string, json: string): string => `event: ${event}\ndata: ${json}\n\n`;
export const SSE_HEARTBEAT = ': keep-alive\n\n';

export function createLiveHub(bus: ChangeBus, options: LiveOptions) {
  const watches = new Map<string, PageWatch>();
  const perProject = new Map<string, number>();
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
    if (watch.streams.size === 0) watches.delete(pageKey(watch.projectId, watch.pageId));
    const count = (perProject.get(stream.projectId) ?? 1) - 1;
    if (count === 0) perProject.delete(stream.projectId);
    else perProject.set(stream.projectId, count);
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
    const editor = views.editor && streams.some((s) => s.drafts) ? json(views.editor) : null;
    const visitor = streams.some((s) => !s.drafts) ? json(views.visitor) : new Map<string, string>();
    for (const stream of streams) {
      // Loaded without the editor view: a drafts stream joined during the load, which loads again.
      if (stream.drafts && !editor) continue;
      const now = stream.drafts && editor ? editor : visitor;
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
        const views = await options.views(watch.projectId, watch.pageId, drafts);
        if (!closed) fanOut(watch, views);
      } while (watch.dirty && watch.streams.size > 0 && !closed);
    } catch (err) {
      // The change is not lost: the page is loaded again shortly and every stream converges.
      options.log.warn({ err, pageId: watch.pageId }, 'live: could not load a page; retrying');
      setTimeout(() => {
        if (watches.get(pageKey(watch.projectId, watch.pageId)) === watch) void refresh(watch);
      }, options.retryMs ?? 1000).unref();
    } finally {
      watch.loading = false;
    }
  }

  bus.subscribe((topic, key) => {
    if (topic === FLUSH_ALL) {
      // Notifications may have been lost while the bus reconnected: reload every watched page.
      for (const watch of watches.values()) void refresh(watch);
      return;
    }
    if (topic !== TOPICS.page && topic !== TOPICS.draft) return;
    const watch = watches.get(key);
    if (watch) void refresh(watch);
  });

  return {
    /**
     * Adds a stream for a page; it first receives every entry the caller sees now, then changes.
     * Over the per-project limit of this instance: 429 (nothing is written to the sink). Returns
     * what to call when the client goes away.
     */
    open(
      projectId: string,
      pageId: string,
      drafts: boolean,
      sink: LiveSink,
      /** When the credential expires (a preview token): the stream ends then (epoch ms). */
      until?: number,
    ): () => void {
      if (closed) throw rateLimited(RETRY_AFTER_SECONDS, 'The server is shutting down; reconnect shortly.');
      const count = perProject.get(projectId) ?? 0;
      if (count >= options.maxStreamsPerProject) {
        throw rateLimited(RETRY_AFTER_SECONDS, TOO_MANY_STREAMS);
      }
      const key = pageKey(projectId, pageId);
      let watch = watches.get(key);
      if (!watch) {
        watch = { projectId, pageId, streams: new Set(), loading: false, dirty: false };
        watches.set(key, watch);
      }
      const stream: Stream = { projectId, drafts, sink, sent: new Map(), watch };
      watch.streams.add(stream);
      perProject.set(projectId, count + 1);
      open += 1;
      heartbeat ??= setInterval(() => {
        for (const w of watches.values()) for (const s of [...w.streams]) write(s, SSE_HEARTBEAT);
      }, options.heartbeatMs).unref();
      // The new stream has been sent nothing, so the next load sends it the whole page. One load
      // serves every stream that opens while it runs.
      void refresh(watch);
      // A preview stream must not outlive its token: it would keep showing drafts after a 401.
      const expiry =
        until === undefined
          ? null
          : setTimeout(
              () => {
                remove(stream);
                void sink.end();
              },
              Math.max(0, until - Date.now()),
            ).unref();
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

export type LiveHub = ReturnType<typeof createLiveHub>;
