import type { Db } from '../../db/database.js';
import type { Locales } from '../../shared/locales.js';
import { byPosition, declarationsOf, type RuleBudget } from '../definitions/index.js';
import * as repo from './content.repository.js';
import { type Entry, type Fields, toEntry } from './content.service.js';
import { pageIn, publishedTargetsIn, visitorLocale } from './locale-reads.js';
import { problemsOfRows } from './publish-rules.js';
import { referenceTargets } from './reference-targets.js';
import {
  anyReferences,
  DEFAULT_DEPTH,
  DEFAULT_RESOLVE_MAX_BYTES,
  type Resolved,
  resolveReferences,
} from './references.js';

/** A page's entries as each kind of caller sees them in GET /v1/content/:pageId, in page order. */
export interface PageViews {
  /** Visitors: entries with a published copy, showing it (the shape published-pages.ts serialises), references resolved. */
  visitor: Entry[];
  /**
   * A member's session: every entry, working fields with stored reference ids, and its `problems`
   * (contract §13). Null when not asked for (no stream shows drafts): those checks stay off visitors' path.
   */
  editor: Entry[] | null;
  /** A preview token: the editor's view with references resolved against working copies; null with `editor`. */
  preview: Entry[] | null;
  /** The pages of entries read to resolve references: a change to one of them changes these views. */
  pages: Set<string>;
  /**
   * The locales whose published copies the visitor view read (the locale's fallback chain, or itself
   * with `fallback` false; contract §14); null in a project without locales.
   */
  chain: string[] | null;
}

const NO_PAGES: Resolved = { fields: [], pages: new Set() };

/**
 * Every view of one page from one query (and, where the page declares references, one query per
 * level of resolution and view): live streams (src/modules/live) reload a page once per change and
 * fan it out to every stream, whichever view each one has. Built on toEntry so a field added to
 * entries reaches the streams too.
 */
export async function pageViews(
  db: Db,
  projectId: string,
  pageId: string,
  /**
   * The rule budget when the drafts views are wanted (null: they are not): their `problems` are
   * computed only then (visitors never wait on them).
   */
  drafts: RuleBudget | null,
  /** Levels of references resolved (contract §13: 0-3). */
  depth = DEFAULT_DEPTH,
  /** CMS_RESOLVE_MAX_BYTES, for each view (references.ts). */
  resolveMaxBytes = DEFAULT_RESOLVE_MAX_BYTES,
): Promise<PageViews> {
  const rows = await repo.entriesOfPageWithDeclarations(db, projectId, pageId);
  rows.sort(byPosition);
  const problems = drafts ? await problemsOfRows(db, rows, drafts) : new Map();
  const editor: Entry[] = [];
  const visitor: Entry[] = [];
  for (const row of rows) {
    const entry = toEntry(row);
    if (drafts) editor.push({ ...entry, problems: problems.get(row.id) ?? [] });
    if (row.publishedFields === null) continue;
    visitor.push({
      ...entry,
      fields: JSON.parse(row.publishedFields) as Fields,
      status: 'published',
      updatedAt: row.publishedAt ?? row.updatedAt,
      // The version the published copy was made at (published-pages.ts): a draft save changes nothing here.
      version: row.publishedVersion ?? row.version,
    });
  }
  const declared = new Map(rows.map((r) => [r.id, declarationsOf(r.declaredFields)]));
  const rootsOf = (entries: Entry[]) =>
    entries.map((e) => ({ id: e.id, fields: e.fields, declared: declared.get(e.id) ?? new Map() }));
  if (
    !anyReferences(rows.map((r) => ({ id: r.id, fields: {}, declared: declared.get(r.id) ?? new Map() })))
  ) {
    return {
      visitor,
      editor: drafts ? editor : null,
      preview: drafts ? editor : null,
      pages: new Set(),
      chain: null,
    };
  }
  const [published, working] = await Promise.all([
    resolveReferences(rootsOf(visitor), depth, referenceTargets(db, projectId, 'published'), resolveMaxBytes),
    drafts
      ? resolveReferences(rootsOf(editor), depth, referenceTargets(db, projectId, 'working'), resolveMaxBytes)
      : NO_PAGES,
  ]);
  return {
    visitor: visitor.map((e, i) => ({ ...e, fields: published.fields[i] as Fields })),
    editor: drafts ? editor : null,
    preview: drafts ? editor.map((e, i) => ({ ...e, fields: working.fields[i] as Fields })) : null,
    pages: new Set([...published.pages, ...working.pages]),
    chain: null,
  };
}

/**
 * The visitor view in a locale of a project with locales (locale-reads.ts), in page order, as
 * published-pages.ts sends it: `locale` undefined reads the default; `fallback` false for `?fallback=false`.
 */
export async function visitorViewIn(
  db: Db,
  projectId: string,
  pageId: string,
  depth: number,
  locales: Locales,
  locale: string | undefined,
  fallback: boolean,
  /** CMS_RESOLVE_MAX_BYTES (references.ts). */
  resolveMaxBytes = DEFAULT_RESOLVE_MAX_BYTES,
): Promise<{ entries: Entry[]; pages: Set<string>; chain: string[] }> {
  const reader = visitorLocale(locales, locale ?? locales.default, fallback);
  const views = await pageIn(db, projectId, pageId, reader);
  views.sort(byPosition);
  const { fields, pages } = await resolveReferences(
    views,
    depth,
    publishedTargetsIn(db, projectId, reader),
    resolveMaxBytes,
  );
  const entries = views.map(
    (v, i): Entry => ({
      id: v.id,
      pageId,
      instanceKey: v.instanceKey,
      componentId: v.componentId,
      fields: fields[i] as Fields,
      status: 'published',
      publishedAt: v.publishedAt,
      updatedAt: v.publishedAt,
      version: v.version,
      locale: reader.code,
      locales: v.locales,
    }),
  );
  return { entries, pages, chain: reader.chain };
}
