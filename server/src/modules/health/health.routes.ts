import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { Envelope, errors } from '../../http/schemas.js';
import { type Metrics, metricsAuthorized, metricsUnauthorized } from './metrics.js';
import { notReady, type Readiness } from './readiness.js';

const Healthy = Type.Object(
  { status: Type.Literal('ok'), version: Type.String() },
  { title: 'Health', examples: [{ status: 'ok', version: '0.1.0' }] },
);
const Unhealthy = Type.Object(
  { status: Type.Literal('error'), version: Type.String(), error: Type.String() },
  {
    title: 'HealthFailure',
    description: 'The database cannot be reached',
    examples: [{ status: 'error', version: '0.1.0', error: 'database unreachable' }],
  },
);

const CheckState = Type.Union([Type.Literal('ok'), Type.Literal('failed'), Type.Literal('skipped')]);
const ReadyChecks = {
  database: CheckState,
  migrations: CheckState,
  changeBus: CheckState,
  mediaStorage: CheckState,
};
const Ready = Type.Object(
  { status: Type.Literal('ready'), version: Type.String(), checks: Type.Object(ReadyChecks) },
  {
    title: 'Readiness',
    examples: [
      {
        status: 'ready',
        version: '0.1.0',
        checks: { database: 'ok', migrations: 'ok', changeBus: 'ok', mediaStorage: 'ok' },
      },
    ],
  },
);
const NOT_READY_EXAMPLE = notReady({
  ready: false,
  failed: ['database'],
  checks: { database: 'failed', migrations: 'skipped', changeBus: 'ok', mediaStorage: 'ok' },
});

const READY_DESCRIPTION = `For load balancers and orchestrators: whether this instance should take
traffic now (liveness stays \`GET /health\`). \`200\` with \`{ data: { status: "ready", version, checks }, error: null }\`
only when the database answers, every migration of this version is applied, the change bus is live
(PostgreSQL: the LISTEN connection that keeps caches right across instances; SQLite: always) and the
media store answers (its directory is there and writable). Otherwise \`503 unavailable\` in the error
envelope with \`Retry-After\`; the message names what failed and \`details.checks\` gives each check as
\`ok\`, \`failed\` or \`skipped\` (not asked, because one it depends on failed). Each check gives up after
2 s. Cheap enough to poll every second: one \`select 1\`, a flag and one file-system call.`;

export interface HealthDeps {
  version: string;
  /** A database round trip (GET /health). */
  ping(): Promise<void>;
  readiness: Readiness;
}

/** GET /health (not enveloped, contract §1: load balancers read `status` and the HTTP code) and GET /health/ready. */
export const healthRoutes =
  ({ version, ping, readiness }: HealthDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/health',
      {
        schema: {
          tags: ['Health'],
          operationId: 'getHealth',
          summary: 'Liveness and database reachability',
          response: { 200: Healthy, 503: Unhealthy },
        },
      },
      async (request, reply) => {
        try {
          await ping();
          return { status: 'ok' as const, version };
        } catch (err) {
          request.log.warn({ err }, 'health check: database unreachable');
          return reply.code(503).send({ status: 'error' as const, version, error: 'database unreachable' });
        }
      },
    );

    app.get(
      '/health/ready',
      {
        schema: {
          tags: ['Health'],
          operationId: 'getReadiness',
          summary: 'Readiness: database, migrations, change bus and media store',
          description: READY_DESCRIPTION,
          response: { 200: Envelope(Ready), ...errors(NOT_READY_EXAMPLE) },
        },
      },
      async () => {
        const report = await readiness();
        if (!report.ready) throw notReady(report);
        return { data: { status: 'ready' as const, version, checks: report.checks as never }, error: null };
      },
    );
  };

/**
 * GET /metrics: Prometheus text for scrapers. Not in the OpenAPI document: it is not part of the API
 * a client calls, its body is not JSON, and whether it needs a credential is the deployment's choice.
 */
export const metricsRoutes =
  (metrics: Metrics, token: string | null): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (!metricsAuthorized(request.headers.authorization, token)) throw metricsUnauthorized();
      return reply.type(metrics.contentType).send(await metrics.render());
    });
  };
