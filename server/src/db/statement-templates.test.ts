import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { newId } from '../shared/ids.js';
import { CamelCaseAtCompile, mappingIdentifiers } from './snake-case.js';
import { createStatementTemplates, TemplateMismatch } from './statement-templates.js';

// Compiled only: the pool is never asked for a connection.
const plugin = new CamelCaseAtCompile();
const db = new Kysely<any>({
  dialect: mappingIdentifiers(new PostgresDialect({ pool: {} as never }), plugin),
  plugins: [plugin],
});

interface Values {
  id: string;
  set: Record<string, unknown>;
  roles: string[];
  note?: string;
}

/** An update shaped by `values` only; counts how often it is built. */
function counted(build: (v: Values) => ReturnType<typeof sql>) {
  let builds = 0;
  return {
    build: (v: Values) => {
      builds++;
      return build(v);
    },
    builds: () => builds,
  };
}

const update = (v: Values) =>
  sql`${db
    .updateTable('entries')
    .set({ ...v.set, version: sql`version + ${1}` })
    .where('id', '=', v.id)
    .where('role', 'in', v.roles)
    .$if(v.note !== undefined, (q) => q.where('note', '=', v.note as string))}`;

describe('statement templates', () => {
  it('builds a shape once and binds every later call to its own values', () => {
    const templates = createStatementTemplates(db, { verifyEveryCall: false });
    const b = counted(update);
    const first = templates.compile('s', { id: 'a', set: { title: 'x', body: 'y' }, roles: ['r1'] }, b.build);
    const builtForFirst = b.builds();
    const second = templates.compile(
      's',
      { id: 'b', set: { title: 'z', body: null }, roles: ['r2'] },
      b.build,
    );
    assert.equal(b.builds(), builtForFirst, 'the second call of a shape builds nothing');
    assert.equal(second.sql, first.sql);
    assert.deepEqual(second.parameters, ['z', null, 1, 'b', 'r2']);
    const fresh = update({ id: 'b', set: { title: 'z', body: null }, roles: ['r2'] }).compile(db);
    assert.equal(second.sql, fresh.sql);
    assert.deepEqual(second.parameters, fresh.parameters);
  });

  it('tells shapes apart by keys, lengths and undefined leaves', () => {
    const templates = createStatementTemplates(db, { verifyEveryCall: true });
    const cases: Values[] = [
      { id: 'a', set: { title: 'x' }, roles: ['r1'] },
      { id: 'a', set: { body: 'x' }, roles: ['r1'] },
      { id: 'a', set: { title: 'x' }, roles: ['r1', 'r2'] },
      { id: 'a', set: { title: 'x' }, roles: ['r1'], note: 'n' },
      { id: 'a', set: { title: 'x', body: undefined }, roles: ['r1'] },
    ];
    for (const values of cases) {
      const fresh = update(values).compile(db);
      const bound = templates.compile('s', values, update);
      assert.equal(bound.sql, fresh.sql);
      assert.deepEqual(bound.parameters, fresh.parameters);
    }
  });

  it('refuses a build that transforms a value, and runs the fresh statement instead', () => {
    const mismatches: Error[] = [];
    const templates = createStatementTemplates(db, {
      verifyEveryCall: false,
      onMismatch: (err) => mismatches.push(err),
    });
    const stringify = (v: Values) =>
      sql`${db
        .updateTable('entries')
        .set({ data: JSON.stringify(v.set) })
        .where('id', '=', v.id)}`;
    const values = { id: 'a', set: { title: 'x' }, roles: [] };
    const bound = templates.compile('s', values, stringify);
    assert.deepEqual(bound.parameters, ['{"title":"x"}', 'a']);
    assert.equal(mismatches.length, 1);
    assert.ok(mismatches[0] instanceof TemplateMismatch);
    const again = templates.compile('s', { ...values, set: { title: 'y' } }, stringify);
    assert.deepEqual(again.parameters, ['{"title":"y"}', 'a'], 'the shape stays uncached');
  });

  it('refuses a build that makes its own values (an id), or decides on a value', () => {
    const templates = createStatementTemplates(db, { verifyEveryCall: true });
    const makesId = (v: Values) => sql`${db.insertInto('entries').values({ id: newId('ent'), title: v.id })}`;
    assert.throws(() => templates.compile('a', { id: 'x', set: {}, roles: [] }, makesId), TemplateMismatch);
    const decides = (v: Values) =>
      sql`${db
        .updateTable('entries')
        .set({ title: v.id === 'special' ? 'other' : v.id })
        .where('id', '=', v.id)}`;
    assert.throws(
      () => templates.compile('b', { id: 'special', set: {}, roles: [] }, decides),
      TemplateMismatch,
    );
  });
});
