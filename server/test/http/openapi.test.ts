import assert from 'node:assert/strict';
import { it } from 'node:test';
import { LOGO_SVG } from '../../src/http/docs-theme.js';
import { ERROR_CODES, STATUS_OF_CODE } from '../../src/http/openapi-errors.js';
import { describeEachDb } from '../helpers/app.js';
import { bearer, call, newMember, newProject, PASSWORD } from '../helpers/factories.js';

type Media = { schema?: unknown; examples?: Record<string, { value: unknown }>; example?: unknown };
type Operation = {
  operationId?: string;
  summary?: string;
  parameters?: { in: string; name: string; required?: boolean; schema?: { default?: unknown } }[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media>; headers?: Record<string, unknown> }>;
  security?: unknown[];
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};

/**
 * The operationIds are the names generated clients call (`client.patchEntry`): renaming one breaks
 * them, so the list is pinned here. Add new operations to it; never rename one.
 */
const OPERATION_IDS = [
  'acceptInvitation',
  'bulkPublishPage',
  'cancelSchedule',
  'changePassword',
  'createApiKey',
  'createPreviewToken',
  'createProject',
  'createSchedule',
  'createUser',
  'createWebhook',
  'deleteEntry',
  'deleteMedia',
  'deleteObject',
  'deletePage',
  'deleteUser',
  'deleteWebhook',
  'endPreviewTokens',
  'getEntry',
  'getHealth',
  'getMe',
  'getProject',
  'getReadiness',
  'getSnapshot',
  'issuePasswordReset',
  'listActivity',
  'listApiKeys',
  'listDefinitions',
  'listDeliveries',
  'listDeploys',
  'listEntryHistory',
  'listEntryReferences',
  'listMedia',
  'listObjects',
  'listPageEntries',
  'listPages',
  'listProjects',
  'listSchedules',
  'listUsers',
  'listWebhooks',
  'login',
  'logout',
  'patchEntry',
  'patchProject',
  'patchUser',
  'patchWebhook',
  'recoverDeliveries',
  'redeliverDelivery',
  'refreshSession',
  'restoreEntryVersion',
  'revokeApiKey',
  'rotateProjectKey',
  'rotateWebhookSecret',
  'saveObjects',
  'searchEntries',
  'serveMedia',
  'setPassword',
  'streamPageChanges',
  'syncDefinitions',
  'testWebhook',
  'unpublishEntry',
  'uploadMedia',
];

function operations(doc: Document): { where: string; path: string; method: string; op: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      where: `${method.toUpperCase()} ${path}`,
      path,
      method,
      op,
    })),
  );
}

/** Follows `#/components/schemas/…` references, so checks see what a generator sees. */
function deref(doc: Document, node: unknown): unknown {
  if (Array.isArray(node)) return node.map((n) => deref(doc, n));
  if (!node || typeof node !== 'object') return node;
  const ref = (node as { $ref?: string }).$ref;
  if (ref?.startsWith('#/components/schemas/')) {
    return deref(doc, doc.components.schemas[ref.slice('#/components/schemas/'.length)]);
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, deref(doc, v)]));
}

function hasExample(doc: Document, op: Operation): boolean {
  const media = [
    ...Object.values(op.requestBody?.content ?? {}),
    ...Object.entries(op.responses)
      .filter(([status]) => status.startsWith('2'))
      .flatMap(([, r]) => Object.values(r.content ?? {})),
  ];
  return media.some(
    (m) => m.examples || m.example || JSON.stringify(deref(doc, m.schema ?? {})).includes('"examples"'),
  );
}

/** The `code` values an error response lists (the enum narrowing the shared Error schema). */
function documentedCodes(media: Media | undefined): string[] {
  const error = (
    media?.schema as { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } }
  )?.properties?.error;
  return error?.properties?.code?.enum ?? [];
}

describeEachDb('OpenAPI and /docs', (ctx) => {
  const document = async () => {
    const res = await call(ctx.app, { method: 'GET', url: '/v1/openapi.json' });
    assert.equal(res.status, 200);
    return res.body as Document;
  };

  it('serves an OpenAPI 3.1 document where every route has a summary, schemas and an example', async () => {
    const doc = await document();
    assert.equal(doc.openapi, '3.1.0');
    const paths = doc.paths;
    assert.ok(
      paths['/v1/projects'] && paths['/v1/auth/login'] && paths['/v1/users/{id}'] && paths['/health'],
    );
    for (const { where, op } of operations(doc)) {
      assert.ok(op.summary, `${where} has no summary`);
      assert.ok(
        Object.keys(op.responses).some((s) => s.startsWith('2')),
        `${where} has no success schema`,
      );
      assert.ok(hasExample(doc, op), `${where} has no example`);
      assert.ok(Array.isArray(op.security), `${where} does not say who may call it (security)`);
    }
    assert.deepEqual(paths['/v1/users']?.get?.security, [{ session: [] }]);
    assert.deepEqual(paths['/health']?.get?.security, []);
    assert.deepEqual(paths['/media/{projectId}/{file}']?.get?.security, []);
  });

  it('gives every operation a unique, pinned operationId', async () => {
    const ids = operations(await document()).map(({ where, op }) => {
      assert.match(op.operationId ?? '', /^[a-z][A-Za-z]+$/, `${where} has no operationId`);
      return op.operationId as string;
    });
    assert.equal(new Set(ids).size, ids.length, 'operationIds are not unique');
    assert.deepEqual([...ids].sort(), OPERATION_IDS);
  });

  it('lists, for every error response, the codes its status carries, with an example of each', async () => {
    const doc = await document();
    for (const { where, path, op } of operations(doc)) {
      for (const [status, response] of Object.entries(op.responses)) {
        const media = response.content?.['application/json'];
        const codes = documentedCodes(media);
        // Not enveloped: /health's own 503 body, and a media range answer's empty 416.
        if (Number(status) < 400 || (path === '/health' && status === '503') || status === '416') continue;
        assert.ok(codes.length > 0, `${where} ${status} lists no error codes`);
        for (const code of codes) {
          assert.ok(ERROR_CODES.includes(code as never), `${where} ${status}: unknown code ${code}`);
          assert.equal(STATUS_OF_CODE[code as never], Number(status), `${where} ${status}: ${code}`);
          const example = media?.examples?.[code]?.value as { error?: { code?: string; message?: string } };
          assert.equal(example?.error?.code, code, `${where} ${status} has no example of ${code}`);
          assert.ok(example.error?.message, `${where} ${status} ${code} example has no message`);
        }
      }
      assert.deepEqual(
        documentedCodes(op.responses['500']?.content?.['application/json']),
        ['internal_error'],
        `${where} does not document 500`,
      );
      if (path.startsWith('/v1/')) {
        assert.deepEqual(
          documentedCodes(op.responses['503']?.content?.['application/json']),
          ['unavailable'],
          `${where} does not document 503 unavailable`,
        );
      }
    }
    const login = doc.paths['/v1/auth/login']?.post;
    assert.deepEqual(documentedCodes(login?.responses['401']?.content?.['application/json']), [
      'invalid_credentials',
    ]);
  });

  it('documents the 401 every credentialed route really answers without a credential', async () => {
    const doc = await document();
    for (const { where, path, method, op } of operations(doc)) {
      if (!op.security?.length) continue;
      const media = op.responses['401']?.content?.['application/json'];
      const documented = media?.examples?.unauthorized?.value as { error: { message: string } } | undefined;
      assert.ok(documented, `${where} documents no unauthorized example`);
      const url = path.replace(/\{[^}]+\}/g, 'x');
      const res = await call(ctx.app, { method: method.toUpperCase() as 'GET', url });
      assert.equal(res.status, 401, where);
      assert.equal(
        res.body.error.message,
        documented.error.message,
        `${where}: the example is not what it says`,
      );
    }
  });

  it('shows as examples the errors the routes really answer', async () => {
    const doc = await document();
    const example = (path: string, method: string, status: number, code: string) => {
      const media = doc.paths[path]?.[method]?.responses[String(status)]?.content?.['application/json'];
      const value = media?.examples?.[code]?.value as {
        error: { code: string; message: string; details?: unknown };
      };
      assert.ok(value, `${method.toUpperCase()} ${path} documents no ${status} ${code}`);
      return value.error;
    };
    const { project, admin } = await newProject(ctx.app);
    // The same account signs up a second site: its session now covers two projects.
    const second = await call(ctx.app, {
      method: 'POST',
      url: '/v1/projects',
      payload: { name: 'Second site', admin: { email: admin.email, password: admin.password } },
    });
    assert.equal(second.status, 201);
    const editor = await newMember(ctx.app, admin.token, project.id, 'editor');
    const asAdmin = { ...bearer(admin.token), 'x-cms-project-id': project.id };
    const cases = [
      {
        res: await call(ctx.app, { method: 'GET', url: '/v1/users', headers: bearer(admin.token) }),
        expected: example('/v1/users', 'get', 400, 'project_required'),
      },
      {
        res: await call(ctx.app, {
          method: 'GET',
          url: `/v1/projects/${project.id}`,
          headers: { ...bearer(admin.token), 'x-cms-project-id': second.body.data.project.id },
        }),
        expected: example('/v1/projects/{id}', 'get', 400, 'project_required'),
      },
      {
        res: await call(ctx.app, {
          method: 'POST',
          url: '/v1/users',
          headers: { ...bearer(editor.token), 'x-cms-project-id': project.id },
          payload: { email: 'someone@example.com', role: 'editor', password: PASSWORD },
        }),
        expected: example('/v1/users', 'post', 403, 'forbidden'),
      },
      {
        res: await call(ctx.app, { method: 'DELETE', url: '/v1/webhooks/whk_unknown', headers: asAdmin }),
        expected: example('/v1/webhooks/{id}', 'delete', 404, 'not_found'),
      },
      {
        res: await call(ctx.app, {
          method: 'POST',
          url: '/v1/auth/login',
          payload: { email: admin.email, password: 'not the password' },
        }),
        expected: example('/v1/auth/login', 'post', 401, 'invalid_credentials'),
      },
      {
        res: await call(ctx.app, { method: 'POST', url: '/v1/users', headers: asAdmin, payload: {} }),
        expected: example('/v1/users', 'post', 400, 'validation_failed'),
      },
    ];
    for (const { res, expected } of cases) {
      assert.equal(res.body.error.code, expected.code);
      assert.equal(res.body.error.message, expected.message);
      if (expected.details !== undefined)
        assert.deepEqual(res.body.error.details[0], (expected.details as unknown[])[0]);
    }
  });

  it('marks defaulted query parameters optional and documents header parameters and response headers', async () => {
    const doc = await document();
    const listObjects = doc.paths['/v1/objects']?.get;
    const draft = listObjects?.parameters?.find((p) => p.in === 'query' && p.name === 'draft');
    assert.equal(draft?.required, false);
    assert.equal(draft?.schema?.default, false);
    const limit = doc.paths['/v1/media']?.get?.parameters?.find((p) => p.name === 'limit');
    assert.equal(limit?.required, false);
    assert.equal(limit?.schema?.default, 50);

    const headers = (op: Operation | undefined) =>
      (op?.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
    assert.deepEqual(headers(listObjects), ['x-cms-key', 'x-cms-project-id', 'If-None-Match']);
    // x-cms-key is also the publishableKey security scheme; PATCH content needs it beside the session.
    // If-Match is the route's own headers schema (contract part two, §7).
    assert.deepEqual(headers(doc.paths['/v1/content/{id}']?.patch), ['x-cms-key', 'if-match']);
    assert.deepEqual(doc.paths['/v1/content/{id}']?.patch?.security, [{ session: [], publishableKey: [] }]);
    assert.deepEqual(headers(doc.paths['/v1/users']?.get), ['x-cms-project-id']);
    assert.ok(headers(doc.paths['/v1/snapshot']?.get).includes('If-None-Match'));

    const snapshot = doc.paths['/v1/snapshot']?.get?.responses;
    assert.deepEqual(Object.keys(snapshot?.['200']?.headers ?? {}), [
      'x-request-id',
      'ETag',
      'Cache-Control',
    ]);
    assert.ok(snapshot?.['503']?.headers?.['Retry-After']);
    assert.ok(doc.paths['/v1/auth/login']?.post?.responses['429']?.headers?.['Retry-After']);
  });

  it('names the API types as components, snapshot elements included', async () => {
    const doc = await document();
    for (const name of ['Entry', 'Project', 'Webhook', 'Delivery', 'Snapshot', 'ObjectRecord', 'Error']) {
      assert.ok(doc.components.schemas[name], `no component ${name}`);
    }
    const entries = doc.paths['/v1/content/{id}']?.get?.responses['200']?.content?.['application/json'];
    assert.match(JSON.stringify(entries?.schema), /#\/components\/schemas\/Entry/);
    const snapshot = doc.components.schemas.Snapshot as { properties: Record<string, { items?: unknown }> };
    assert.deepEqual(snapshot.properties.objectFields?.items, {
      $ref: '#/components/schemas/SnapshotObjectField',
    });
    assert.deepEqual(snapshot.properties.objectCollections?.items, {
      $ref: '#/components/schemas/SnapshotObjectCollection',
    });
    assert.deepEqual(snapshot.properties.objectTypes?.items, {
      $ref: '#/components/schemas/SnapshotObjectType',
    });
  });

  it("serves Folio's reference page at /docs", async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /text\/html/);
    assert.match(res.body, /<title>Folio API reference<\/title>/);
    assert.doesNotMatch(res.body, /Swagger UI/);
    const css = await ctx.app.inject({ method: 'GET', url: '/docs/static/theme/folio.css' });
    assert.match(css.body, /\.download-url-wrapper \{ display: none; \}/);
    const init = await ctx.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    assert.ok(init.body.includes(Buffer.from(LOGO_SVG).toString('base64')));
  });
});

describeEachDb('API reference introduction', (ctx) => {
  it('carries the conventions and decisions of docs/api.md', async () => {
    const res = await call(ctx.app, { method: 'GET', url: '/v1/openapi.json' });
    assert.match(res.body.info.description, /## Decisions where the specification is silent/);
    assert.match(res.body.info.description, /project_required/);
  });
});
