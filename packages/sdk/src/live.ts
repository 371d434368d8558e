import { apiError, FolioError, retryAfterOf, transportError } from './errors.js';
import { sseParser } from './sse.js';
import { backoff, sleep } from './transport.js';
import type { Entry, Fetch } from './types.js';

/**
 * `folio.live()`: GET /v1/live read with fetch streaming, not EventSource. EventSource cannot send
 * headers, and Folio takes credentials only in headers (contract §2: never in query strings, where
 * they would land in access logs and browser history). So the body is read as a stream and parsed here
 * (sse.ts); the same code runs in browsers, Node and edge runtimes.
 *
 * Reconnecting: after an error, a dropped connection or a clean end (server shutdown), it connects
 * again after 0.5 s, 1 s, 2 s… up to 30 s (jittered), or after `Retry-After` on a 429/503; the delay
 * starts again from 0.5 s once a connection has lasted 10 s. Each new stream starts with every entry
 * the caller sees now, so a change made while disconnected is not missed; deletions made meanwhile are
 * not replayed by the stream, so after a reconnect the page is read once and entries that are gone are
 * reported to `onDeleted`. A stream that stays silent past `idleTimeoutMs` (no event, no heartbeat) is
 * replaced the same way. Answers that waiting cannot fix (400, 401, 403, 404: a wrong key, an expired
 * preview token) stop the stream and are reported to `onError`.
 */
export interface LiveOptions {
  /**
   * Every failure: one that stopped the stream, and each connection attempt that failed (it retries).
   * Without it, only a failure that stopped the stream goes to the `onError` of createFolio.
   */
  onError?: (error: unknown) => void;
  /** This stream's language (`?locale=`), instead of createFolio's `locale`. */
  locale?: string;
  /** Each time a stream is open (the first time, and after every reconnect). */
  onOpen?: () => void;
  /**
   * Once, when following has ended for good: stop() was called, or an answer that waiting cannot fix
   * stopped it (after its onError). From then on nothing more is sent.
   */
  onEnd?: () => void;
  /**
   * A stream silent this long is taken for dead and replaced (45,000 ms: three of the server's
   * heartbeats, sent at least every 15 s). A connection lost without a reset, as on a mobile network
   * or behind a proxy that drops idle connections, would otherwise wait forever.
   */
  idleTimeoutMs?: number;
}

export interface LiveContext {
  url: string;
  headers: Record<string, string>;
  fetch: Fetch;
  /** The locale followed (`?locale=`); undefined: the project's default, nothing sent. */
  locale?: string;
  /** The ids of the entries the caller sees now (after a reconnect). */
  currentIds(pageId: string): Promise<string[]>;
  /** Where a failure that stopped a stream goes when the caller gave no onError. */
  onError(error: unknown): void;
}

const STABLE_MS = 10_000;
const FATAL = new Set([400, 401, 403, 404]);

async function failureOf(response: Response): Promise<FolioError> {
  const body = await response.json().catch(() => null);
  if (body?.error?.code) return apiError({ status: response.status, error: body.error, response });
  return new FolioError(
    'unavailable',
    response.status,
    `HTTP ${response.status} without Folio's error envelope.`,
    {
      retryAfter: retryAfterOf(response),
    },
  );
}

export function openLive(
  context: LiveContext,
  pageId: string,
  onEntry: (entry: Entry) => void,
  onDeleted: (id: string) => void = () => {},
  options: LiveOptions = {},
): () => void {
  const stop = new AbortController();
  /** Entries the caller was told about and not told are gone. */
  const known = new Set<string>();
  /** Entries the current connection has sent: they exist now, whatever an older read says. */
  const fresh = new Set<string>();
  const report = (error: unknown, fatal = false) =>
    options.onError ? options.onError(error) : fatal && context.onError(error);
  const url = `${context.url}/v1/live?pageId=${encodeURIComponent(pageId)}${
    context.locale ? `&locale=${encodeURIComponent(context.locale)}` : ''
  }`;

  const parse = sseParser(({ event, data }) => {
    let value: { id?: unknown };
    try {
      value = JSON.parse(data);
    } catch {
      return; // not Folio's event; a proxy's message, say
    }
    if (typeof value?.id !== 'string') return;
    if (event === 'entry') {
      known.add(value.id);
      fresh.add(value.id);
      onEntry(value as Entry);
    } else if (event === 'deleted') {
      known.delete(value.id);
      onDeleted(value.id);
    }
  });

  /**
   * After a reconnect: which of the entries known before it are gone. An entry the new stream has
   * sent is not (the read may predate its publish); the rest are checked against one read.
   */
  async function forgetGone(before: Set<string>): Promise<void> {
    const ids = new Set(await context.currentIds(pageId));
    for (const id of before) {
      if (!ids.has(id) && !fresh.has(id) && known.has(id) && !stop.signal.aborted) {
        known.delete(id);
        onDeleted(id);
      }
    }
  }

  async function read(body: ReadableStream<Uint8Array>, connection: AbortController): Promise<void> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const idleMs = options.idleTimeoutMs ?? 45_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const watch = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () => connection.abort(new DOMException('The live stream went silent.', 'TimeoutError')),
        idleMs,
      );
    };
    try {
      for (watch(); ; watch()) {
        const { done, value } = await reader.read();
        if (done) return;
        parse(decoder.decode(value, { stream: true }));
      }
    } finally {
      clearTimeout(timer);
    }
  }

  async function run(): Promise<void> {
    let failures = 0;
    let opened = false;
    while (!stop.signal.aborted) {
      let wait: number | undefined;
      const started = Date.now();
      // One connection: aborted by stop(), or alone when it goes silent.
      const connection = new AbortController();
      const abort = () => connection.abort(stop.signal.reason);
      stop.signal.addEventListener('abort', abort, { once: true });
      try {
        const response = await context.fetch(
          new Request(url, { headers: context.headers, signal: connection.signal }),
        );
        if (response.ok && response.body) {
          options.onOpen?.();
          fresh.clear();
          if (opened) forgetGone(new Set(known)).catch((error) => report(error));
          opened = true;
          await read(response.body, connection);
        } else {
          const error = await failureOf(response);
          const fatal = FATAL.has(response.status);
          report(error, fatal);
          if (fatal) return;
          if (error.retryAfter !== undefined) wait = error.retryAfter * 1000;
        }
      } catch (error) {
        if (stop.signal.aborted) return;
        report(transportError(connection.signal.aborted ? connection.signal.reason : error));
      } finally {
        stop.signal.removeEventListener('abort', abort);
      }
      if (Date.now() - started >= STABLE_MS) failures = 0;
      await sleep(wait ?? backoff(failures++), stop.signal).catch(() => {});
    }
  }

  void run().finally(() => options.onEnd?.());
  return () => stop.abort();
}
