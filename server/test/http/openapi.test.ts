import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDb } from '../helpers/app.js';
import { call } from '../helpers/factories.js';

type Operation = {
  summary?: string;
  requestBody?: { content: Record<string, { schema?: unknown; examples?: unknown; example?: unknown }> };
  responses: Record<
    string,
    { content?: Record<string, { schema?: unknown; examples?: unknown; example?: unknown }> }
  >;
  security?: unknown[];
};

function hasExample(op: Operation): boolean {
  const bodies = Object.values(op.requestBody?.content ?? {});
  if (bodies.some((c) => c.examples || c.example || JSON.stringify(c.schema ?? {}).includes('"examples"')))
    return true;
  for (const [status, response] of Object.entries(op.responses)) {
    if (!status.startsWith('2')) continue;
    for (const media of Object.values(response.content ?? {})) {
      if (media.examples || media.example || JSON.stringify(media.schema ?? {}).includes('"examples"'))
        return true;
    }
  }
  return false;
}

describeEachDb('OpenAPI and /docs', (ctx) => {
  it('serves an OpenAPI 3.1 document where every route has a summary, schemas and an example', async () => {
    const res = await call(ctx.app, { method: 'GET', url: '/v1/openapi.json' });
    assert.equal(res.status, 200);
    assert.equal(res.body.openapi, '3.1.0');
    const paths = res.body.paths as Record<string, Record<string, Operation>>;
    assert.ok(
      paths['/v1/projects'] && paths['/v1/auth/login'] && paths['/v1/users/{id}'] && paths['/health'],
    );
    let count = 0;
    for (const [path, methods] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(methods)) {
        count++;
        const where = `${method.toUpperCase()} ${path}`;
        assert.ok(op.summary, `${where} has no summary`);
        assert.ok(
          Object.keys(op.responses).some((s) => s.startsWith('2')),
          `${where} has no success schema`,
        );
        assert.ok(hasExample(op), `${where} has no example`);
        if (path.startsWith('/v1/') && path !== '/v1/projects' && !path.startsWith('/v1/auth/login')) {
          assert.ok(op.security === undefined || Array.isArray(op.security), `${where} security`);
        }
      }
    }
    assert.ok(count >= 13, `only ${count} operations documented`);
    assert.deepEqual(paths['/v1/users']?.get?.security, [{ session: [] }]);
  });

  it('serves the reference page at /docs', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /text\/html/);
  });
});

describeEachDb('API reference introduction', (ctx) => {
  it('carries the conventions and decisions of docs/api.md', async () => {
    const res = await call(ctx.app, { method: 'GET', url: '/v1/openapi.json' });
    assert.match(res.body.info.description, /## Decisions where the specification is silent/);
    assert.match(res.body.info.description, /project_required/);
  });
});
