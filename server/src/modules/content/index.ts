/**
 * Content entries and their history: owns `content_entries`, `entry_locales` and `entry_history`. Lends the pages as
 * live streams and snapshots read them, and the in-transaction operations the worker's schedules run.
 */

export { contentRoutes } from './content.routes.js';
export { ContentReadQuery, LocaleOrEvery } from './content.schemas.js';
export {
  type ContentService,
  createContentOperations,
  createContentService,
  type Entry,
  entryStubs,
} from './content.service.js';
export { entriesRoutes } from './entries.routes.js';
export { createEntrySearch } from './entry-search.service.js';
export { snapshotEntriesIn } from './locale-reads.js';
export { localesHoldingValues } from './locales.repository.js';
export { type PageViews, pageViews } from './page-views.js';
export { entryDeletionRoutes, pagesRoutes } from './pages.routes.js';
export { contentTargets, createPagesService, type PagesService } from './pages.service.js';
export { publishedEntriesForSnapshot } from './published-pages.js';
