import { CompiledQuery, sql } from 'kysely';
import type { Db } from '../../src/db/database.js';
import { dialectOf } from '../../src/db/dialect/index.js';
import { entryPageSummaries } from '../../src/modules/content/content.repository.js';
import { countPages, pageIdsOf, pageIdsQuery } from '../../src/modules/content/pages.repository.js';
import { definitionPageSummaries } from '../../src/modules/definitions/definitions.repository.js';

/**
 * The statements behind GET /v1/pages, run in this process straight on the database (no HTTP, no
 * auth): the database's share of a request, and each `?q=` statement's plan (EXPLAIN QUERY PLAN on
 * SQLite, EXPLAIN ANALYZE on PostgreSQL), which must read the pages table's key range, never entries.
 */
export async function probeStatements(db: Db, projectId: string, queries: { name: string; q: string }[]) {
  const lines: string[] = [];
  const median = async (fn: () => Promise<unknown>) => {
    const times: number[] = [];
    for (let i = 0; i < 11; i++) {
      const t0 = performance.now();
      await fn();
      times.push(performance.now() - t0);
    }
    return times.sort((a, b) => a - b)[5]!;
  };
  for (const { name, q } of queries) {
    const query = { q: q || undefined, limit: 1001 };
    const ids = async () => {
      const pageIds = (await pageIdsOf(db, projectId, query)).slice(0, 1000);
      await Promise.all([
        definitionPageSummaries(db, projectId, pageIds),
        entryPageSummaries(db, projectId, pageIds),
      ]);
    };
    const idsOnly = () => pageIdsOf(db, projectId, query);
    lines.push(
      `- ${name}: page ids ${(await median(idsOnly)).toFixed(2)} ms; with the two count queries ${(await median(ids)).toFixed(2)} ms`,
    );
    const compiled = pageIdsQuery(db, projectId, query).compile();
    const postgres = dialectOf(db) === 'postgres';
    const explain = CompiledQuery.raw(
      `${postgres ? 'explain (analyze, costs off)' : 'explain query plan'} ${compiled.sql}`,
      [...compiled.parameters],
    );
    const plan = await db.executeQuery<Record<string, unknown>>(explain);
    const text = plan.rows.map((r) => (postgres ? String(r['QUERY PLAN']) : String(r.detail))).join('\n    ');
    lines.push(`  \`${compiled.sql}\`\n    ${text}`);
  }
  // A sync of a new page checks the page cap under the project's lock: it counts the project's pages.
  lines.push(
    `- page cap check of a new page's sync (countPages): ${(await median(() => countPages(db, projectId))).toFixed(2)} ms`,
  );
  return lines;
}

/** What autovacuum would do after a bulk load: planner statistics (PostgreSQL; SQLite's planner needs none here). */
export async function analyze(db: Db): Promise<void> {
  if (dialectOf(db) === 'postgres') await sql`analyze`.execute(db);
}
