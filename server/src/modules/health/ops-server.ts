import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppError } from '../../shared/errors.js';
import { type Metrics, metricsAuthorized, metricsUnauthorized } from './metrics.js';
import { notReady, type Readiness } from './readiness.js';

/**
 * The stand-alone worker's operations port (CMS_WORKER_PORT): GET /health, /health/ready and
 * /metrics with the same bodies as the API's, on a bare node:http server. The worker has no other
 * HTTP, so it does not carry Fastify, its hooks and its OpenAPI document for three routes.
 */
export interface OpsServerOptions {
  host: string;
  port: number;
  version: string;
  ping(): Promise<void>;
  readiness: Readiness;
  metrics: Metrics;
  metricsToken: string | null;
}

export interface OpsServer {
  /** The port it listens on (the one asked for, or the one the system chose for 0 in tests). */
  readonly port: number;
  close(): Promise<void>;
}

export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const server = createServer((req, res) => {
    handle(options, req, res).catch(() => {
      if (!res.headersSent)
        json(res, 500, {
          data: null,
          error: { code: 'internal_error', message: 'Something went wrong on our side.' },
        });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => closeServer(server),
  };
}

async function handle(options: OpsServerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method !== 'GET' || (path !== '/health' && path !== '/health/ready' && path !== '/metrics')) {
    return json(res, 404, {
      data: null,
      error: { code: 'not_found', message: `No route ${req.method} ${path}.` },
    });
  }
  if (path === '/health') {
    try {
      await options.ping();
      return json(res, 200, { status: 'ok', version: options.version });
    } catch {
      return json(res, 503, { status: 'error', version: options.version, error: 'database unreachable' });
    }
  }
  if (path === '/health/ready') {
    const report = await options.readiness();
    if (!report.ready) return error(res, notReady(report));
    return json(res, 200, {
      data: { status: 'ready', version: options.version, checks: report.checks },
      error: null,
    });
  }
  if (!metricsAuthorized(req.headers.authorization, options.metricsToken))
    return error(res, metricsUnauthorized());
  const body = await options.metrics.render();
  res.writeHead(200, {
    'content-type': options.metrics.contentType,
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** The API's error envelope and headers for an AppError (what src/http/errors.ts sends). */
function error(res: ServerResponse, err: AppError): void {
  const body = {
    code: err.code,
    message: err.message,
    ...(err.details !== undefined && { details: err.details }),
  };
  json(res, err.statusCode, { data: null, error: body }, err.headers);
}

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Scrapers keep connections alive; idle ones must not hold the worker's exit.
    server.closeIdleConnections();
  });
}
