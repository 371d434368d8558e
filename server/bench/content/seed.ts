import type { Db } from '../../src/db/database.js';
import { insertInChunks } from '../../src/db/dialect/bulk.js';
import { createInProcessChangeBus } from '../../src/db/dialect/change-bus.js';
import type { EntryRow } from '../../src/modules/content/content.table.js';
import { localesHoldingValues } from '../../src/modules/content/locales.repository.js';
import type { DefinitionRow } from '../../src/modules/definitions/definitions.table.js';
import { endProjectPreviewTokens } from '../../src/modules/preview/preview.service.js';
import { createProjectsService } from '../../src/modules/projects/projects.service.js';
import { outbox } from '../../src/outbox/index.js';
import { canonicalJson } from '../../src/shared/canonical.js';
import { newId } from '../../src/shared/ids.js';
import { pageSearchText, pageSortKey } from '../../src/shared/page-ids.js';
import { createSecretBox, EncryptionKey } from '../../src/shared/secret-box.js';

/** ~700 bytes of published fields, so 20 entries make the ~15 KB page of the issue. */
function fieldsFor(page: number, i: number) {
  return {
    title: `Section ${i} of page ${page}: a headline long enough to be realistic`,
    body: `<p>${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(6)}</p>`,
    image: { url: `https://cdn.example.com/p${page}/img-${i}.webp`, alt: `Illustration ${i}` },
    cta: { label: 'Read more', href: `/pages/${page}/section-${i}` },
    order: i,
    featured: i % 3 === 0,
  };
}

/**
 * A project whose `pages` pages each hold `perPage` published entries, written straight to the tables
 * (definitions, entries and the pages list), with its admin's sign-in.
 */
export async function seedProject(db: Db, name: string, pages: number, perPage: number) {
  const projects = createProjectsService(db, outbox, createInProcessChangeBus(), {
    allowPrivate: false,
    secrets: createSecretBox(EncryptionKey.generate()),
    endPreviewTokens: endProjectPreviewTokens,
    localesHoldingValues,
  });
  const admin = { email: `${newId('usr').toLowerCase()}@bench.example`, password: 'bench password 123' };
  const { project } = await projects.create({ name, admin });
  const now = new Date().toISOString();
  const definitions: DefinitionRow[] = [];
  const entries: EntryRow[] = [];
  for (let p = 0; p < pages; p++) {
    const pageId = p === 0 ? '/' : `/pages/${p}`;
    for (let i = 0; i < perPage; i++) {
      const instanceKey = `section-${String(i).padStart(2, '0')}`;
      const fields = canonicalJson(fieldsFor(p, i));
      definitions.push({
        projectId: project.id,
        pageId,
        instanceKey,
        componentId: 'Section',
        fields: JSON.stringify([{ key: 'title', type: 'text' }]),
        position: i,
        createdAt: now,
        updatedAt: now,
      });
      entries.push({
        id: newId('ent'),
        projectId: project.id,
        pageId,
        instanceKey,
        componentId: 'Section',
        fields,
        publishedFields: fields,
        publishedAt: now,
        createdAt: now,
        updatedAt: now,
        version: 2,
        publishedVersion: 2,
        sharedVersion: 0,
      });
    }
  }
  // Each page's row in the pages list (what a definitions sync writes with the stubs).
  const pageRows = [...new Set(definitions.map((d) => d.pageId))].map((pageId) => ({
    projectId: project.id,
    pageId,
    sortKey: pageSortKey(pageId),
    search: pageSearchText(pageId),
  }));
  await db.transaction().execute(async (trx) => {
    await insertInChunks(trx, 'componentDefinitions', definitions);
    await insertInChunks(trx, 'contentEntries', entries);
    await insertInChunks(trx, 'contentPages', pageRows);
  });
  // The admin signs in where a bench needs a session (bench/pages: GET /v1/pages).
  return Object.assign(project, { admin });
}
