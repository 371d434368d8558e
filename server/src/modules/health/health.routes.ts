import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';

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

/** Not enveloped (contract §1): load balancers read `status` and the HTTP code. */
export const healthRoutes =
  (version: string, ping: () => Promise<void>): FastifyPluginAsyncTypebox =>
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
  };
