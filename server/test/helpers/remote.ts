import type { FastifyInstance, InjectOptions } from 'fastify';

/**
 * A running server (another process) dressed as an app whose `inject` is a fetch, so the factories
 * (newSite, sync, put, ...) build fixtures over HTTP exactly as they do in process. Every request is
 * aborted after `timeoutMs`: a server whose event loop is blocked makes the test fail, not hang.
 */
export function remoteApp(base: string, timeoutMs = 60_000): FastifyInstance {
  return {
    async inject(options: InjectOptions) {
      const raw = options.payload;
      const json = raw !== undefined && typeof raw !== 'string' && !Buffer.isBuffer(raw);
      const res = await fetch(`${base}${options.url as string}`, {
        method: options.method ?? 'GET',
        headers: {
          ...(json && { 'content-type': 'application/json' }),
          ...(options.headers as Record<string, string>),
        },
        ...(raw !== undefined && { body: json ? JSON.stringify(raw) : (raw as string | Buffer) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      return {
        statusCode: res.status,
        headers: Object.fromEntries(res.headers),
        body: text,
        json: () => JSON.parse(text),
      };
    },
  } as unknown as FastifyInstance;
}
