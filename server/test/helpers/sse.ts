import { type IncomingMessage, request } from 'node:http';

/**
 * A Server-Sent Events client, as a site (or the SDK, with fetch) opens GET /v1/live: headers carry
 * the credentials, the body is read as it streams. Events are parsed per the SSE format; comment
 * lines (`: …`) are kept as events named `comment`. node:http with a connection of its own per
 * stream (agent: false), not the global fetch: fetch's shared pool leaves spare connections open
 * that would hold the server's close for a headers timeout.
 */
export interface SseEvent {
  event: string;
  data: string;
}

export interface LiveClient {
  status: number;
  headers: Headers;
  /** The JSON body of a refused stream (status other than 200). */
  body: any;
  events: SseEvent[];
  /** Resolves with the first event from the current position that matches, and moves past it. */
  next(match: (e: SseEvent) => boolean, ms?: number): Promise<SseEvent>;
  /** The next `entry` or `deleted` event, skipping comments. */
  nextChange(ms?: number): Promise<SseEvent>;
  /** Rejects if an `entry`/`deleted` event arrives within `ms` from the current position. */
  quiet(ms: number): Promise<void>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export const isChange = (e: SseEvent) => e.event === 'entry' || e.event === 'deleted';

export async function openLive(
  base: string,
  pageId: string,
  headers: Record<string, string>,
  /** More of the query string, as sent (`&locale=fr`). */
  query = '',
): Promise<LiveClient> {
  const url = new URL(`${base}/v1/live?pageId=${encodeURIComponent(pageId)}${query}`);
  const req = request(url, { headers, agent: false });
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', reject);
    req.end();
  });
  req.on('error', () => {}); // close() tears the connection down
  const resHeaders = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (typeof value === 'string') resHeaders.set(name, value);
  }
  const status = res.statusCode ?? 0;
  const events: SseEvent[] = [];
  let cursor = 0;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  if (status !== 200) {
    let text = '';
    for await (const chunk of res) text += chunk;
    return {
      status,
      headers: resHeaders,
      body: JSON.parse(text),
      events,
      next: () => Promise.reject(new Error('stream refused')),
      nextChange: () => Promise.reject(new Error('stream refused')),
      quiet: async () => {},
      ended: Promise.resolve(),
      close: () => {},
    };
  }

  const ended = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let split = buffer.indexOf('\n\n');
        while (split !== -1) {
          const block = buffer.slice(0, split);
          buffer = buffer.slice(split + 2);
          events.push(parse(block));
          split = buffer.indexOf('\n\n');
        }
        notify();
      }
    } catch {
      // aborted by close(), or the connection was cut
    }
    notify();
  })();
  let done = false;
  void ended.then(() => {
    done = true;
  });

  async function next(match: (e: SseEvent) => boolean, ms = 2000): Promise<SseEvent> {
    const deadline = Date.now() + ms;
    for (;;) {
      while (cursor < events.length) {
        const e = events[cursor++] as SseEvent;
        if (match(e)) return e;
      }
      const left = deadline - Date.now();
      if (left <= 0 || done)
        throw new Error(`no matching event within ${ms} ms (got ${JSON.stringify(events)})`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, left);
      });
    }
  }

  return {
    status,
    headers: resHeaders,
    body: null,
    events,
    next,
    nextChange: (ms) => next(isChange, ms),
    async quiet(ms) {
      const got = await next(isChange, ms).catch(() => null);
      if (got) throw new Error(`unexpected event ${JSON.stringify(got)}`);
    },
    ended,
    close: () => req.destroy(),
  };
}

function parse(block: string): SseEvent {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) return { event: 'comment', data: line.slice(1).trim() };
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return { event, data: data.join('\n') };
}
