import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { describeEachDb } from '../helpers/app.js';

/** Tenant isolation starts in the schema: every table with project data is indexed by project. */
describeEachDb('schema', (ctx) => {
  it('every table with a project_id column has an index that starts with project_id', async () => {
    const missing: string[] = [];
    if (ctx.kind === 'postgres') {
      const { rows } = await sql<{ table: string; indexed: boolean }>`
        select c.table_name as "table",
               exists (select 1 from pg_indexes i
                       where i.schemaname = 'public' and i.tablename = c.table_name
                         and i.indexdef ~ '\\(project_id[,)]') as indexed
        from information_schema.columns c
        where c.table_schema = 'public' and c.column_name = 'project_id'`.execute(ctx.db);
      for (const r of rows) if (!r.indexed) missing.push(r.table);
    } else {
      const { rows: tables } = await sql<{ name: string }>`
        select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(ctx.db);
      for (const { name } of tables) {
        const { rows: columns } = await sql<{
          name: string;
        }>`select name from pragma_table_info(${name})`.execute(ctx.db);
        if (!columns.some((c) => c.name === 'project_id')) continue;
        const { rows: indexes } = await sql<{
          name: string;
        }>`select name from pragma_index_list(${name})`.execute(ctx.db);
        let indexed = false;
        for (const index of indexes) {
          const { rows: first } = await sql<{ name: string }>`
            select name from pragma_index_info(${index.name}) where seqno = 0`.execute(ctx.db);
          if (first[0]?.name === 'project_id') indexed = true;
        }
        if (!indexed) missing.push(name);
      }
    }
    assert.deepEqual(missing, []);
  });
});
