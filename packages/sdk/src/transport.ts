import { retryAfterOf } from './errors.js';
import type { Fetch } from './types.js';

/**
 * The fetch the generated client sends through: a time limit on every exchange, and bounded retries
 * of reads that the server (or a proxy in front of it) refused for now.
 *
 * - Timeout: the whole exchange, body included, within `timeoutMs` (the body is read here, so a server
 *   that sends headers and then stalls still times out). The caller's AbortSignal still aborts.
 * - Retries: GETs answered 429 or 503 are sent again up to `retries` times, after `Retry-After` (or
 *   the envelope's `details.retryAfterSeconds`), else after 0.5 s, 1 s, 2 s… A wait longer than
 *   `maxRetryWaitMs` is not waited: the 429 is returned and becomes a FolioError whose `retryAfter`
 *   says how long. Writes (definitions sync) are never repeated here.
 */
export interface TransportOptions {
  fetch: Fetch;
  timeoutMs: number;
  retries: number;
  maxRetryWaitMs: number;
}

export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
    };
    const abort = () => {
      done();
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });
}

export const backoff = (attempt: number, capMs = 30_000): number =>
  Math.min(capMs, 500 * 2 ** attempt) * (0.5 + Math.random() / 2);

async function exchange(fetch: Fetch, request: Request, timeoutMs: number): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException('Folio did not answer in time.', 'TimeoutError')),
    timeoutMs,
  );
  const outer = request.signal;
  const abort = () => controller.abort(outer.reason);
  if (outer.aborted) abort();
  else outer.addEventListener('abort', abort, { once: true });
  try {
    const response = await fetch(new Request(request, { signal: controller.signal }));
    // 204 and 304 have no body, and a Response for them must be built without one.
    const body = response.status === 204 || response.status === 304 ? null : await response.arrayBuffer();
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', abort);
  }
}

export function transport(options: TransportOptions): Fetch {
  return async (request) => {
    const retryable = request.method === 'GET';
    for (let attempt = 0; ; attempt++) {
      const response = await exchange(options.fetch, request, options.timeoutMs);
      if (!retryable || attempt >= options.retries || (response.status !== 429 && response.status !== 503)) {
        return response;
      }
      const details = await response
        .clone()
        .json()
        .then((body: { error?: { details?: unknown } }) => body?.error?.details)
        .catch(() => undefined);
      const seconds = retryAfterOf(response, details);
      const wait = seconds === undefined ? backoff(attempt) : seconds * 1000;
      if (wait > options.maxRetryWaitMs) return response;
      await sleep(wait, request.signal);
    }
  };
}
