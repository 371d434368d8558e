import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { loadConfig } from '../../src/config.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.js';
import { isDatabaseUnavailable } from '../../src/db/dialect/unavailable.js';
import { createStatementNames } from '../../src/db/pg-prepared.js';
import { createTestDatabase, dbKinds, type TestDatabase } from '../helpers/db.js';

/**
 * Named prepared statements on PostgreSQL (src/db/pg-prepared.ts), against a real server: which
 * statements get a name, that a newer instance's migration changing a table's columns does not break
 * an older instance for more than one statement per connection, and the switch that turns it off.
 */
it('a statement gets a name from its second run; texts past the cap stay unnamed', () => {
  const nameOf = createStatementNames();
  assert.equal(nameOf('select $1'), undefined);
  const name = nameOf('select $1');
  assert.ok(name);
  assert.equal(nameOf('select $1'), name);
  for (let i = 0; i < 400; i++) {
    nameOf(`select ${i} + $1`);
    nameOf(`select ${i} + $1`);
  }
  assert.equal(nameOf('select 0 + $1') !== undefined, true, 'named before the cap');
  assert.equal(nameOf('select 399 + $1'), undefined, 'past the cap');
});

const postgres = dbKinds().includes('postgres');

describe('prepared statements on PostgreSQL', { skip: !postgres && 'TEST_DATABASE_URL is not set' }, () => {
  let database: TestDatabase;
  let db: Kysely<any>;

  before(async () => {
    database = await createTestDatabase('postgres');
    db = database.handle.db as Kysely<any>;
    await sql`create table notes (id integer primary key, body text not null)`.execute(db);
    await sql`insert into notes values (1, 'one'), (2, 'two')`.execute(db);
  });
  after(() => database.drop());

  /** The named statements of the connection `trx` runs on. */
  const prepared = (trx: Kysely<any>) =>
    sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`
      .execute(trx)
      .then((r) => r.rows);

  it('the second run of a statement on a connection is prepared under a name', async () => {
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < 3; i++) {
        const { rows } = await sql`select body from notes where id = ${1}`.execute(trx);
        assert.deepEqual(rows, [{ body: 'one' }]);
      }
      const named = (await prepared(trx)).filter((p) => p.statement.includes('from notes'));
      assert.equal(named.length, 1, JSON.stringify(named));
      assert.match(named[0]!.name, /^folio_/);
    });
  });

  /** `fn` in two transactions held at once: on two different connections of the pool. */
  async function onTwoConnections<T>(fn: (trx: Kysely<any>) => Promise<T>) {
    let arrived = 0;
    let release = () => {};
    const both = new Promise<void>((r) => {
      release = r;
    });
    const pids: number[] = [];
    const results = await Promise.allSettled(
      [0, 1].map(() =>
        db.transaction().execute(async (trx) => {
          try {
            pids.push((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid);
            return await fn(trx);
          } finally {
            if (++arrived === 2) release();
            await both;
          }
        }),
      ),
    );
    assert.notEqual(pids[0], pids[1], 'two connections');
    return results;
  }

  it("a migration that changes a table's columns costs at most one failed statement per connection", async () => {
    const select = async (on: Kysely<any>) =>
      (await sql`select * from notes where id = ${2}`.execute(on)).rows;
    const thrice = async (trx: Kysely<any>) => {
      for (let i = 0; i < 2; i++) await select(trx);
      return select(trx);
    };
    for (const r of await onTwoConnections(thrice)) assert.equal(r.status, 'fulfilled');

    // What a newer instance's migration does.
    await sql`alter table notes add column tags text not null default ''`.execute(db);

    // Inside a transaction the refused statement cannot be retried: each connection fails once, as
    // retryable (503), and has prepared afresh by the next.
    for (const r of await onTwoConnections(select)) {
      assert.equal(r.status, 'rejected');
      assert.ok(isDatabaseUnavailable(r.reason), String(r.reason));
    }
    for (const r of await onTwoConnections(select)) {
      assert.deepEqual(r.status === 'fulfilled' && r.value, [{ id: 2, body: 'two', tags: '' }]);
    }

    // On its own, a refused statement is prepared afresh and retried: the caller never sees the refusal.
    await sql`alter table notes add column pinned boolean not null default false`.execute(db);
    assert.deepEqual(await select(db), [{ id: 2, body: 'two', tags: '', pinned: false }]);
  });

  it('CMS_PG_PREPARED_STATEMENTS=false sends every statement unnamed', async () => {
    const config = loadConfig({
      DATABASE_URL: (database.config as { url: string }).url,
      CMS_PG_PREPARED_STATEMENTS: 'false',
    });
    assert.equal(config.database.kind === 'postgres' && config.database.preparedStatements, false);
    const handle: DatabaseHandle = await openDatabase(config.database);
    try {
      await handle.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 3; i++) await sql`select body from notes where id = ${1}`.execute(trx);
        assert.deepEqual(await prepared(trx as Kysely<any>), []);
      });
    } finally {
      await handle.close();
    }
  });
});
