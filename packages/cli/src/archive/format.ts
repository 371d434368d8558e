import type { Schemas } from '@folio/client';
import type { DefinitionsFile } from '../commands/push.js';

/**
 * The export directory: plain JSON files (one per kind of thing, easy to read and to diff) and the
 * media bytes. `folio export` writes it, `folio import` reads it; `formatVersion` changes only when
 * a file's shape does, and import refuses versions it does not know.
 *
 *   folio-export.json   this manifest
 *   project.json        settings: domains, cdnUrl, bakeEnabled, definitionSync, deploy hooks (no secrets)
 *   definitions.json    page path → components, the file "folio push" reads
 *   entries.json        every entry: working copy, published copy, publish history (oldest first)
 *   objects.json        objects as published, and the draft overlay
 *   media.json          media records, each with the name of its file under media/
 *   webhooks.json       webhooks without their secrets
 *   snapshot.json       the published snapshot at the time of the export (what import must reproduce):
 *                       in a project with locales, the document of every locale (`?locale=*`)
 *
 * Languages (contract §14): a project with locales is written as format 2, so that a CLI that knows
 * nothing of locales refuses it rather than import one language of it. project.json then carries
 * `locales`, and each entry of entries.json its other locales' copies under `locales` (the default
 * locale's are `working` and `published`, as in format 1); history rows carry their `locale`.
 */
export const FORMAT = 'folio-export';
export const FORMAT_VERSION = 1;
/** The format of an export of a project with locales. */
export const FORMAT_VERSION_LOCALES = 2;

export const FILES = {
  manifest: 'folio-export.json',
  project: 'project.json',
  definitions: 'definitions.json',
  entries: 'entries.json',
  objects: 'objects.json',
  media: 'media.json',
  mediaDir: 'media',
  webhooks: 'webhooks.json',
  snapshot: 'snapshot.json',
} as const;

export interface Manifest {
  format: typeof FORMAT;
  formatVersion: number;
  exportedAt: string;
  source: { url: string; projectId: string; name: string };
  snapshotVersion: string;
  counts: {
    pages: number;
    entries: number;
    historyRows: number;
    objects: number;
    media: number;
    webhooks: number;
  };
  /** What could not be read, e.g. webhooks by an editor (they need an admin). */
  skipped: string[];
}

export interface ProjectSettings {
  name: string;
  domains: string[];
  cdnUrl: string | null;
  bakeEnabled: boolean;
  definitionSync: Schemas['Project']['definitionSync'];
  deployHooks: Schemas['DeployHook'][];
  /** The project's languages (format 2); absent or null: one language. */
  locales?: Schemas['Project']['locales'];
}

/** One non-default locale's copies of an entry (format 2). */
export interface ExportedLocale {
  status: 'draft' | 'published';
  publishedAt: string | null;
  /**
   * The working copy as that locale holds it: the shared values and its OWN values of localized
   * fields (an editor's read in that locale, less the fields listed in `fallbacks`).
   */
  working: Record<string, unknown>;
  /** Its published copy (a visitor's read with `?fallback=false`); null when not published in it. */
  published: Record<string, unknown> | null;
}

export interface ExportedEntry {
  pageId: string;
  instanceKey: string;
  componentId: string;
  /** The id on the source server: an import keeps it where the target has no entry with it. */
  id: string;
  version: number;
  status: 'draft' | 'published';
  /** The working copy, as editors see it. */
  working: Record<string, unknown>;
  /** The published copy, as visitors see it; null when the entry is not live. */
  published: Record<string, unknown> | null;
  publishedAt: string | null;
  updatedAt: string;
  /** The publish audit trail, oldest first, with the source's actors and times (and locales). */
  history: Schemas['HistoryItem'][];
  /** Format 2: every locale but the default, by code. */
  locales?: Record<string, ExportedLocale>;
}

export interface ExportedObjects {
  published: Schemas['ObjectRecord'][];
  /** The draft overlay: every object with its draft values (published ones where none). */
  draft: Schemas['ObjectRecord'][];
}

export type ExportedMedia = Schemas['Media'] & { /** Relative to the export directory. */ file: string };

export type ExportedWebhook = Schemas['Webhook'];

export interface Archive {
  manifest: Manifest;
  project: ProjectSettings;
  definitions: DefinitionsFile;
  entries: ExportedEntry[];
  objects: ExportedObjects;
  media: ExportedMedia[];
  webhooks: ExportedWebhook[];
  snapshot: Schemas['Snapshot'] | SnapshotAll;
}

/**
 * The `GET /v1/snapshot?locale=*` document (contract §14, §17: schema 2), which the API documents in
 * prose only: derived from one locale's snapshot.
 */
export type SnapshotAll = Omit<Schemas['Snapshot'], 'schema' | 'content'> & {
  schema: 2;
  defaultLocale: string;
  locales: Record<string, Schemas['Snapshot']['content']>;
};

export const isSnapshotAll = (snapshot: Schemas['Snapshot'] | SnapshotAll): snapshot is SnapshotAll =>
  'locales' in snapshot;
