import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { AttemptResult } from '../jobs/attempts.js';
import { vetTarget } from './hook-targets.js';

/**
 * An attempt that failed without an answer to record: refused target, network error, hook removed
 * (`final`: no retry makes sense), internal error.
 */
export function failedAttempt(
  error: string,
  options: { final?: boolean; responseCode?: number | null; durationMs?: number } = {},
): AttemptResult {
  return {
    ok: false,
    responseCode: options.responseCode ?? null,
    durationMs: options.durationMs ?? 0,
    error,
    responseBody: null,
    retryAfterSeconds: null,
    ...(options.final && { final: true }),
  };
}

/** Response bytes kept for the delivery log. */
export const STORED_BODY_BYTES = 1024;
/** Response bytes read at most; past this the connection is dropped (a receiver cannot stream at us). */
const READ_LIMIT_BYTES = 64 * 1024;

export interface HookClientOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** Keep-alive sockets per host; deliveries to one receiver reuse connections. */
  maxSockets?: number;
}

export interface HookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Connects to the address that was vetted, whatever the name resolves to by now (DNS rebinding). */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, all: { address: string; family: number }[]) => void)(null, [
        { address, family },
      ]);
    else callback(null, address, family);
  };
}

function retryAfterSeconds(header: string | undefined, now: number): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** `host[:port]` of a URL, for logs (the path and query of a hook URL may be its secret). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an invalid URL';
  }
}

/**
 * The outbound HTTP client for webhooks and deploy hooks: POST only, the target vetted and pinned,
 * one overall deadline (connect + response + body), redirects reported as failures and never
 * followed, the answer's first bytes kept for the log. It never throws: every problem is an outcome.
 */
export function createHookClient(options: HookClientOptions) {
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.maxSockets ?? 256,
    scheduling: 'lifo' as const,
  };
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };

  async function post(request: HookRequest): Promise<AttemptResult> {
    const started = performance.now();
    const fail = (error: string, responseCode: number | null = null): AttemptResult =>
      failedAttempt(error, { responseCode, durationMs: Math.round(performance.now() - started) });
    const host = hostOf(request.url);
    const target = await vetTarget(request.url, options.allowPrivate);
    if (!target.ok) return { ...fail(`refused target: ${target.reason}`), target: host };
    const secure = target.url.protocol === 'https:';

    const result = await new Promise<AttemptResult>((resolve) => {
      let settled = false;
      const finish = (result: AttemptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const req = (secure ? https : http).request(
        target.url,
        {
          method: 'POST',
          agent: secure ? agents.https : agents.http,
          lookup: pinnedLookup(target.address, target.family),
          headers: {
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(request.body)),
            'user-agent': 'Folio-Webhooks/1',
            ...request.headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            if (size < STORED_BODY_BYTES) chunks.push(chunk);
            size += chunk.length;
            if (size > READ_LIMIT_BYTES) res.destroy();
          });
          const done = () => {
            const status = res.statusCode ?? 0;
            const body = Buffer.concat(chunks).subarray(0, STORED_BODY_BYTES).toString('utf8');
            const ok = status >= 200 && status < 300;
            let error: string | null = null;
            if (status >= 300 && status < 400) error = `redirect (${status}) not followed`;
            else if (!ok) error = `receiver answered ${status}`;
            finish({
              ok,
              responseCode: status,
              durationMs: Math.round(performance.now() - started),
              error,
              responseBody: body,
              retryAfterSeconds:
                status === 429 || status === 503
                  ? retryAfterSeconds(res.headers['retry-after'], Date.now())
                  : null,
            });
          };
          res.on('end', done);
          res.on('close', done);
          res.on('error', done);
        },
      );
      const timer = setTimeout(() => {
        req.destroy();
        finish(fail(`timed out after ${options.timeoutMs} ms`));
      }, options.timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) =>
        finish(fail(err.code ? `${err.code}: ${err.message}` : err.message)),
      );
      req.end(request.body);
    });
    return { ...result, target: host };
  }

  return {
    post,
    close(): void {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

export type HookClient = ReturnType<typeof createHookClient>;
