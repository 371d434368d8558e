/**
 * Statements per editor write, counted at the driver (every `pg` query, every better-sqlite3
 * statement run), for a first publishing PATCH of an entry, then one draft PATCH and one PATCH that
 * publishes, with a session token; then an editor's read with that session (GET /v1/projects) and a
 * visitor's read of the page, cold and then from the fast path (over a socket: it answers before Fastify).
 * `node --import tsx bench/writes/statements.ts` (PostgreSQL when TEST_DATABASE_URL is set).
 * BENCH_STATEMENTS_SQL=1 prints the statements of the publish and the reads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createTestDatabase, type DbKind } from '../../test/helpers/db.js';

const seen: string[] = [];
let counting = false;
const pgQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: any[]) {
  if (counting) seen.push(typeof args[0] === 'string' ? args[0] : args[0]?.text);
  return (pgQuery as any).apply(this, args);
} as any;
for (const method of ['run', 'get', 'all'] as const) {
  const original = (Database as any).prototype.constructor;
  void original;
  const proto = Object.getPrototypeOf((new Database(':memory:') as any).prepare('select 1'));
  const fn = proto[method];
  proto[method] = function (this: any, ...args: unknown[]) {
    if (counting) seen.push(this.source);
    return fn.apply(this, args);
  };
}

export async function countStatements(kind: DbKind) {
  const dir = mkdtempSync(join(tmpdir(), 'folio-statements-'));
  const database = await createTestDatabase(kind);
  const config = loadConfig({ LOG_LEVEL: 'silent', CMS_DATA_DIR: dir, CMS_WORKER_ENABLED: 'false' });
  const app = await buildApp({ config, database: database.handle });
  await app.ready();
  try {
    const inject = async (o: any) => {
      const res = await app.inject(o);
      if (res.statusCode >= 300) throw new Error(`${o.method} ${o.url}: ${res.statusCode} ${res.body}`);
      return res.json().data;
    };
    const email = `count-${Date.now()}@example.com`;
    const password = 'correct horse battery staple';
    const created = await inject({
      method: 'POST',
      url: '/v1/projects',
      payload: { name: 'Count', admin: { email, password } },
    });
    const { token } = await inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password } });
    const key = created.project.apiKey;
    await inject({
      method: 'POST',
      url: '/v1/definitions/sync',
      headers: { 'x-cms-key': key },
      payload: {
        pageId: '/count',
        components: [{ componentId: 'Card', instanceKey: 'a', fields: [{ key: 'title', type: 'text' }] }],
      },
    });
    const headers = { authorization: `Bearer ${token}`, 'x-cms-key': key };
    const [entry] = await inject({ method: 'GET', url: '/v1/content/%2Fcount', headers });
    const patch = async (i: number, status?: string) => {
      seen.length = 0;
      counting = true;
      await inject({
        method: 'PATCH',
        url: `/v1/content/${entry.id}`,
        headers,
        payload: { fields: { title: `T ${i}` }, ...(status && { status }) },
      });
      counting = false;
      return [...seen];
    };
    // The first write warms the caches (publishable key, declared types, and on PostgreSQL the
    // entry memo of the optimistic PATCH, src/modules/content/entry-memo.ts): it takes the locked path.
    const first = await patch(0, 'published');
    const draft = await patch(1);
    const publish = await patch(2, 'published');
    // The session check of a read: an editor's GET, authenticated by its session token.
    const counted = async (run: () => Promise<unknown>) => {
      seen.length = 0;
      counting = true;
      await run();
      counting = false;
      return [...seen];
    };
    const sessionRead = await counted(() =>
      inject({ method: 'GET', url: '/v1/projects', headers: { authorization: `Bearer ${token}` } }),
    );
    // The visitor read over a real socket (the fast path answers before Fastify, so not through
    // inject): the first fills the page cache, the second is the fast read itself.
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const visit = () =>
      counted(async () => {
        const res = await fetch(`${base}/v1/content/%2Fcount`, { headers: { 'x-cms-key': key } });
        if (res.status !== 200) throw new Error(`visitor read: ${res.status}`);
        await res.arrayBuffer();
      });
    const coldRead = await visit();
    const fastRead = await visit();
    return { kind, first, draft, publish, sessionRead, coldRead, fastRead };
  } finally {
    await app.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const kinds: DbKind[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
  for (const kind of kinds) {
    const r = await countStatements(kind);
    process.stdout.write(
      `${kind}: first PATCH (locked) ${r.first.length} statements, then draft PATCH ${r.draft.length}, publish PATCH ${r.publish.length}; session read ${r.sessionRead.length}; visitor read cold ${r.coldRead.length}, fast ${r.fastRead.length}\n`,
    );
    if (process.env.BENCH_STATEMENTS_SQL) {
      for (const [name, list] of Object.entries({
        publish: r.publish,
        sessionRead: r.sessionRead,
        coldRead: r.coldRead,
      })) {
        for (const s of list) process.stdout.write(`  ${name}: ${s}\n`);
      }
    }
  }
}
