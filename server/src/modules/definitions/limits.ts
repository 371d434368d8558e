import { PAGE_ID_MAX_LENGTH } from '../../shared/page-ids.js';

/**
 * Hard limits on content (documented in the route descriptions). The publishable key is public, so
 * definitions sync is callable by anyone who reads a site's bundle: these bound how far a stranger
 * can grow a project (pages per project is CMS_MAX_PAGES_PER_PROJECT, in config.ts). A cap reached by the project's state is a 409; an oversized input is a 400.
 */
export const LIMITS = {
  /** Components in one sync request. */
  componentsPerSync: 500,
  /** Definitions (and so entries) on one page, all syncs together. */
  componentsPerPage: 500,
  /** Top-level declared fields of one component. */
  fieldsPerComponent: 500,
  /** Declarations of one component at every depth, containers included (contract §13). */
  declarationsPerComponent: 500,
  /** Containers (object, list, blocks) nested in one another (contract §13). */
  containerDepth: 5,
  /** One component's declarations, as JSON, in bytes (contract §17). */
  componentDeclarationBytes: 64 * 1024,
  /** Keys in one entry's fields (declared or not). */
  fieldsPerEntry: 200,
  /** One field value, as JSON, in bytes (a declared object, list or blocks value: up to the entry's bound). */
  fieldValueBytes: 100 * 1024,
  /** One entry's fields, as JSON, in bytes (contract §13). */
  entryFieldsBytes: 1024 * 1024,
  /** Page path (pageId) length, in characters. */
  pagePathLength: PAGE_ID_MAX_LENGTH,
  /** instanceKey, componentId and field key length, in characters. */
  keyLength: 128,
} as const;
