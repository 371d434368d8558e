import { readFileSync } from 'node:fs';
import swagger from '@fastify/swagger';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifySchema,
} from 'fastify';
import { packageRoot } from '../paths.js';
import { DOCS_CSS, DOCS_TITLE, FAVICON_SVG, LOGO_SVG } from './docs-theme.js';
import { hoistNamedSchemas } from './openapi-components.js';
import { documentRoute } from './openapi-operation.js';

/**
 * The OpenAPI 3.1 document is generated from the route schemas (the same ones that validate and
 * serialise), so the reference cannot drift from the code. Served at /v1/openapi.json; /docs renders it.
 * Its introduction is docs/api.md (conventions and the decisions the specification leaves open).
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    transform: ({ schema, url, route }) =>
      documentRoute({ schema, url, route }) as { schema: FastifySchema; url: string },
    transformObject: (document) =>
      hoistNamedSchemas(
        ('openapiObject' in document ? document.openapiObject : {}) as Record<string, unknown>,
      ),
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Folio API',
        version,
        license: { name: 'MIT', identifier: 'MIT' },
        description: readFileSync(new URL('docs/api.md', packageRoot), 'utf8'),
      },
      // Relative: the document describes the server that serves it, wherever that runs.
      servers: [{ url: '/', description: 'The server this document is served from' }],
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
          preview: {
            type: 'apiKey',
            in: 'header',
            name: 'x-cms-preview',
            description:
              'Preview token (cms_pv_…) from POST /v1/preview-tokens, sent beside the x-cms-key of its project: read-only, sees working copies.',
          },
        },
      },
      tags: [
        { name: 'Health', description: 'Liveness and database reachability, for load balancers.' },
        { name: 'Auth', description: 'Sessions for editors and admins.' },
        { name: 'Projects', description: 'A project is one site.' },
        { name: 'Users', description: 'Members of the project and their roles (admin, editor).' },
        {
          name: 'Definitions',
          description:
            "Component schemas the site's SDK registers per page (publishable key); they create stub entries.",
        },
        {
          name: 'Content',
          description:
            'Entries with a working copy (editors) and a published copy (visitors); publish, bulk publish, unpublish, the publish audit trail and restore. Publishable-key routes answer CORS for the project domains.',
        },
        {
          name: 'Snapshot',
          description: 'Everything published, with a content-derived version, for build-time baking.',
        },
        {
          name: 'Webhooks',
          description:
            'Signed (Standard Webhooks), durable, retried outbound events. Verify with any Standard Webhooks library; de-duplicate on `webhook-id`.',
        },
        { name: 'Deploys', description: 'Debounced deploy hook calls fired by publishes, and their log.' },
        {
          name: 'API keys',
          description:
            'Secret API keys (cms_sk_…) for servers: owned by the account that creates them, scoped to one, some or all of the sites it administers, read or write.',
        },
        {
          name: 'Objects',
          description:
            'Schemaless structured data pushed by servers: scalar fields and ordered collections, upserted by key, draft or published.',
        },
        {
          name: 'Preview',
          description: 'Read-only preview tokens: a site shows unpublished content without a session.',
        },
        {
          name: 'Live',
          description: 'Server-Sent Events: entries of a page as they change, on every instance.',
        },
        {
          name: 'Activity',
          description:
            'Who changed what: one record per change, written with the change; for admins, kept CMS_ACTIVITY_RETENTION_DAYS.',
        },
        {
          name: 'Schedules',
          description:
            'Publishing and unpublishing at a chosen time, run by the worker exactly once, never early.',
        },
        {
          name: 'Media',
          description: 'Image uploads (editors), the list (members) and the public file URLs with variants.',
        },
      ],
    },
  });

  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  installDocsPage(app);
}

/**
 * /docs, the reference page (swagger-ui), loaded on its first request (issue 13 #2): the plugin,
 * its YAML parser and its static file server were a fifth of the CPU a start took, for a page a
 * production server may never show. It runs in a Fastify instance of its own, built on the first
 * request under /docs and handed every later one; it serves the app's own document (`app.swagger()`).
 * The app's hooks still run first (request id, access log), and the headers they set are passed on.
 * Rejected: registering swagger-ui at start and only deferring its work — the cost is in loading it.
 */
function installDocsPage(app: FastifyInstance): void {
  let loading: Promise<FastifyInstance> | undefined;
  const load = async () => {
    const { default: swaggerUi } = await import('@fastify/swagger-ui');
    const ui = Fastify({ logger: false });
    // swagger-ui declares a dependency on @fastify/swagger: this stands in for it, with the app's document.
    const documentOfApp = async (instance: FastifyInstance) => {
      instance.decorate('swagger', ((options?: { yaml?: boolean }) =>
        app.swagger(options as never)) as never);
    };
    Object.assign(documentOfApp, {
      [Symbol.for('skip-override')]: true,
      [Symbol.for('plugin-meta')]: { name: '@fastify/swagger' },
    });
    await ui.register(documentOfApp);
    await ui.register(swaggerUi, {
      routePrefix: '/docs',
      uiConfig: { docExpansion: 'list', deepLinking: true },
      logo: { type: 'image/svg+xml', content: LOGO_SVG, href: '/docs/', target: '_self' },
      theme: {
        title: DOCS_TITLE,
        css: [{ filename: 'folio.css', content: DOCS_CSS }],
        favicon: [
          { filename: 'folio.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content: FAVICON_SVG },
        ],
      },
    });
    ui.setNotFoundHandler((request, reply) => {
      void reply.code(404).send({
        data: null,
        error: { code: 'not_found', message: `No route ${request.method} ${request.url.split('?')[0]}.` },
      });
    });
    await ui.ready();
    return ui;
  };
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    loading ??= load().catch((err) => {
      loading = undefined; // the next request tries again
      throw err;
    });
    const ui = await loading;
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value as string);
    }
    reply.hijack();
    ui.routing(request.raw, reply.raw);
  };
  app.get('/docs', { schema: { hide: true } }, forward);
  app.get('/docs/*', { schema: { hide: true } }, forward);
  app.addHook('onClose', async () => {
    const ui = await loading?.catch(() => undefined);
    await ui?.close();
  });
}
