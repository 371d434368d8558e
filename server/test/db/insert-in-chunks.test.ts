import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import {
  flatRows,
  insertInChunks,
  insertStatements,
  MAX_BIND_PARAMS,
  tuplePlaceholders,
} from '../../src/db/dialect/bulk.js';
import { describeEachDb } from '../helpers/app.js';
import { newProject } from '../helpers/factories.js';

const record = (projectId: string, i: number, actorName: string | null = `Ada ${i}`) => ({
  id: `act_chunks_${String(i).padStart(5, '0')}`,
  projectId,
  at: '2026-11-26T12:00:00.000Z',
  action: 'objects.saved' as const,
  actorType: 'apiKey' as const,
  actorId: 'key_1',
  actorName,
  targetType: 'object' as const,
  targetId: `card/c${i}`,
  summary: `Saved "card" c${i}, it's \u00e9 \ud83d\ude00.`,
});

// src/db/dialect/bulk.ts writes multi-row inserts itself (the head compiled once by the builder):
// the SQL and parameters must be the builder's own, and the rows must land, on both databases.
describeEachDb('insertInChunks', (ctx) => {
  it("writes the builder's SQL and parameters", () => {
    const rows = [record('p', 1), record('p', 2, null), record('p', 3)];
    const built = ctx.db.insertInto('activity').values(rows).compile();
    const [mine, ...more] = insertStatements(ctx.db, 'activity', rows) ?? [];
    assert.equal(more.length, 0);
    assert.equal(mine?.sql, built.sql);
    assert.deepEqual(mine?.parameters, built.parameters);
  });

  it('writes placeholders per shape and start, the same text when asked again; flattens rows in order', () => {
    const pg = ctx.kind === 'postgres';
    assert.equal(tuplePlaceholders(ctx.db, 2, 3), pg ? '($1, $2, $3), ($4, $5, $6)' : '(?, ?, ?), (?, ?, ?)');
    assert.equal(
      tuplePlaceholders(ctx.db, 2, 3, 2),
      pg ? '($2, $3, $4), ($5, $6, $7)' : '(?, ?, ?), (?, ?, ?)',
    );
    assert.equal(tuplePlaceholders(ctx.db, 1, 3), pg ? '($1, $2, $3)' : '(?, ?, ?)');
    assert.equal(tuplePlaceholders(ctx.db, 2, 3), pg ? '($1, $2, $3), ($4, $5, $6)' : '(?, ?, ?), (?, ?, ?)');
    assert.deepEqual(
      flatRows([
        ['a', 1, null],
        ['b', 2, undefined],
      ]),
      ['a', 1, null, 'b', 2, undefined],
    );
    assert.deepEqual(flatRows([]), []);
  });

  it('leaves rows with other keys, or an undefined value, to the builder', () => {
    const a = record('p', 1);
    const { actorName: _, ...withoutName } = record('p', 2);
    assert.equal(insertStatements(ctx.db, 'activity', [a, withoutName]), null);
    assert.equal(
      insertStatements(ctx.db, 'activity', [a, { ...record('p', 2), actorName: undefined }]),
      null,
    );
    const { projectId, ...rest } = record('p', 3);
    const reordered = { projectId, ...rest, id: rest.id }; // the same keys, in another order
    assert.equal(insertStatements(ctx.db, 'activity', [a, reordered]), null);
    assert.equal(
      insertStatements(ctx.db, 'activity', [a, { ...record('p', 4), summary: sql<string>`'x'` }]),
      null,
    );
  });

  it('inserts every row, over several statements, by either path, inside a transaction', async () => {
    const { project } = await newProject(ctx.app);
    const perStatement = Math.floor(MAX_BIND_PARAMS / Object.keys(record('p', 0)).length);
    const count = perStatement + 10; // two statements
    const rows = Array.from({ length: count }, (_, i) =>
      record(project.id, i, i % 7 === 0 ? null : `Ada ${i}`),
    );
    assert.equal(insertStatements(ctx.db, 'activity', rows)?.length, 2);
    await ctx.db.transaction().execute((trx) => insertInChunks(trx, 'activity', rows));
    // The builder's path: a row without actorName gets the column's default (null).
    const { actorName: _, ...odd } = record(project.id, count);
    await insertInChunks(ctx.db, 'activity', [record(project.id, count + 1), odd]);
    // And a row holding an expression.
    await insertInChunks(ctx.db, 'activity', [
      { ...record(project.id, count + 2), summary: sql<string>`'by sql'` },
    ]);

    const stored = await ctx.db
      .selectFrom('activity')
      .selectAll()
      .where('projectId', '=', project.id)
      .where('id', 'like', 'act_chunks_%')
      .orderBy('id')
      .execute();
    assert.equal(stored.length, count + 3);
    // Read back as written; `locale` (migration 0020) is a column the rows leave to its default.
    assert.deepEqual(stored[1], { ...rows[1], locale: null });
    assert.deepEqual(stored[7], { ...rows[7], locale: null });
    assert.equal(stored[count]?.actorName, null);
    assert.equal(stored[count + 1]?.actorName, `Ada ${count + 1}`);
    assert.equal(stored[count + 2]?.summary, 'by sql');
  });
});
