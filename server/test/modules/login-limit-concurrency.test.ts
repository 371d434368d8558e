import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.js';
import { describeEachDb } from '../helpers/app.js';
import { call, newProject } from '../helpers/factories.js';

/**
 * Issue 10 #2: the limit used to be checked before the argon2 verify and the failure written after
 * it, so parallel wrong passwords were all verified. A 401 `invalid_credentials` is a verified
 * password; a 429 is one refused before verifying.
 */
async function burst(apps: FastifyInstance[], count: number, attempt: (i: number) => object, ip: string) {
  const results = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      call(apps[i % apps.length] as FastifyInstance, {
        method: 'POST',
        url: '/v1/auth/login',
        payload: attempt(i),
        remoteAddress: ip,
      }),
    ),
  );
  const statuses = results.map((r) => r.status);
  const verified = statuses.filter((s) => s === 401).length;
  const limited = statuses.filter((s) => s === 429).length;
  assert.equal(verified + limited, count, `only 401 or 429 expected: ${statuses.join(',')}`);
  return verified;
}

describeEachDb('login limit under concurrency', (ctx) => {
  it('40 parallel wrong passwords for one address and email: at most 10 are verified', async () => {
    const { admin } = await newProject(ctx.app);
    const verified = await burst(
      [ctx.app],
      40,
      () => ({ email: admin.email, password: 'wrong guess' }),
      '203.0.113.40',
    );
    assert.ok(verified <= 10, `${verified} verified`);
    assert.equal(verified, 10);
  });

  it('150 parallel wrong passwords from one address across emails: at most 100 are verified', async () => {
    const verified = await burst(
      [ctx.app],
      150,
      (i) => ({ email: `burst-${i}@example.com`, password: 'wrong guess' }),
      '203.0.113.150',
    );
    assert.ok(verified <= 100, `${verified} verified`);
    assert.equal(verified, 100);
  });

  describe2Instances(ctx);
});

/** Two app instances on one PostgreSQL database, each with its own pool (as behind a load balancer). */
function describe2Instances(ctx: Parameters<Parameters<typeof describeEachDb>[1]>[0]) {
  let b: FastifyInstance | undefined;
  let handleB: DatabaseHandle | undefined;
  before(async () => {
    if (ctx.kind !== 'postgres') return;
    handleB = await openDatabase(ctx.database.config);
    b = await buildApp({ config: ctx.config, database: handleB });
    await b.ready();
  });
  after(async () => {
    await b?.close();
    await handleB?.close();
  });

  it('across two instances, 40 parallel wrong passwords: at most 10 are verified', async (t) => {
    if (!b) return t.skip('SQLite runs one instance per file');
    const { admin } = await newProject(ctx.app);
    const verified = await burst(
      [ctx.app, b],
      40,
      () => ({ email: admin.email, password: 'wrong guess' }),
      '203.0.113.41',
    );
    assert.ok(verified <= 10, `${verified} verified`);
    assert.equal(verified, 10);
  });
}
