import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/**
 * The OpenAPI 3.1 document is generated from the route schemas (the same ones that validate and
 * serialise), so the reference cannot drift from the code. Served at /v1/openapi.json; /docs renders it.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    // A plugin's root route ('/' under a prefix) is documented without the trailing slash.
    transform: ({ schema, url }) => ({ schema, url: url.length > 1 ? url.replace(/\/$/, '') : url }),
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Folio API',
        version,
        description:
          'Folio is a headless CMS backend: one project is one site. Every /v1 response is an envelope `{ data, error }`; on failure `error` is `{ code, message, details? }`. Every response carries `x-request-id`.',
      },
      components: {
        securitySchemes: {
          session: { type: 'http', scheme: 'bearer', description: 'Session token from POST /v1/auth/login.' },
          secretKey: {
            type: 'http',
            scheme: 'bearer',
            description:
              'Secret API key (cms_sk_…), server-to-server only. Add x-cms-project-id when it covers several sites.',
          },
          publishableKey: {
            type: 'apiKey',
            in: 'header',
            name: 'x-cms-key',
            description: 'Publishable project key (cms_pk_…); safe in client code.',
          },
        },
      },
      tags: [
        { name: 'Health' },
        { name: 'Auth', description: 'Sessions for editors and admins.' },
        { name: 'Projects', description: 'A project is one site.' },
        { name: 'Users', description: 'Members of the project and their roles (admin, editor).' },
      ],
    },
  });

  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
  });
}
