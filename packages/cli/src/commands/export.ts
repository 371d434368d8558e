import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { Schemas } from '@folio/client';
import { answer, call, readAll } from '../api.js';
import {
  type Archive,
  type ExportedEntry,
  type ExportedLocale,
  type ExportedMedia,
  FILES,
  FORMAT,
  FORMAT_VERSION,
  FORMAT_VERSION_LOCALES,
  isSnapshotAll,
  type SnapshotAll,
} from '../archive/format.js';
import { openProject, type ProjectAccess } from '../archive/project.js';
import { allLocalesVersion, snapshotVersion } from '../canonical.js';
import type { Command } from '../command.js';
import { pathIn, writeAtomically, writeJson } from '../files.js';
import { ApiError, CommandError } from '../io.js';
import { required } from '../options.js';
import { count } from '../report.js';

export const exportProject: Command = {
  name: 'export',
  summary: 'write a project (definitions, entries with history, objects, media, webhooks) to a directory',
  help: `Usage: folio export --out DIR

Writes everything a project holds that its API can read into DIR, for "folio import" into another
project or server (a move, a backup, a staging copy):

  definitions, every entry (working copy, published copy and publish history), objects (published
  and draft), media files with their records, webhooks (without secrets), the project's settings
  (domains, cdnUrl, bakeEnabled, definitionSync, deploy hooks without secrets, locales) and the
  snapshot. In a project with locales: every locale's working and published copies of each entry,
  and the snapshot of every locale (?locale=*).

Not exported: members and their passwords, API keys, preview tokens, the activity log, webhook
deliveries and schedules. Needs a member's session (an admin's, for webhooks: an editor's export
skips them and says so). DIR must be empty, new, or an earlier export (then it is replaced whole).
The snapshot is read at the start and at the end: if something was published meanwhile, the export
fails rather than mix two states.

Options:
  --out DIR            the directory to write`,
  options: { out: { type: 'string', short: 'o' } },
  connection: 'all',
  positionals: { min: 0, max: 0 },

  async run({ values, io, connection }) {
    const out = pathIn(io.cwd, required(values, 'out'));
    await checkTarget(out);
    const access = await openProject(connection, 'export');
    const { project } = access;
    io.err(`Exporting project "${project.name}" (${project.id}) from ${access.url}\n`);

    const before = await readSnapshot(access);
    const archive = await readProject(access, before);
    const after = await readSnapshot(access);
    if (after.version !== before.version) {
      throw new CommandError(
        'something was published during the export (the snapshot changed); nothing was written: export again',
      );
    }
    const computed = isSnapshotAll(before) ? allLocalesVersion(before) : snapshotVersion(before);
    if (computed !== before.version) {
      throw new CommandError(
        `the snapshot's version does not match its content (${before.version}); is this server a Folio of the same schema?`,
      );
    }

    // Written beside DIR, then moved into place: an interrupted export never leaves half a directory.
    const staging = `${out}.partial-${process.pid}`;
    await rm(staging, { recursive: true, force: true });
    try {
      await mkdir(join(staging, FILES.mediaDir), { recursive: true });
      for (const media of archive.media) {
        const bytes = await download(access, media);
        await writeAtomically(join(staging, media.file), bytes);
      }
      await writeJson(join(staging, FILES.project), archive.project);
      await writeJson(join(staging, FILES.definitions), archive.definitions);
      await writeJson(join(staging, FILES.entries), archive.entries);
      await writeJson(join(staging, FILES.objects), archive.objects);
      await writeJson(join(staging, FILES.media), archive.media);
      await writeJson(join(staging, FILES.webhooks), archive.webhooks);
      await writeJson(join(staging, FILES.snapshot), archive.snapshot);
      // The manifest last: a directory without it is not an export.
      await writeJson(join(staging, FILES.manifest), archive.manifest);
      await rm(out, { recursive: true, force: true });
      await rename(staging, out);
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw error;
    }

    const { counts } = archive.manifest;
    io.err(
      `Exported ${count(counts.pages, 'page')}, ${count(counts.entries, 'entry', 'entries')} (${count(counts.historyRows, 'history row')}), ${count(counts.objects, 'object')}, ${count(counts.media, 'media file')} and ${count(counts.webhooks, 'webhook')} into ${out}\n`,
    );
    for (const note of archive.manifest.skipped) io.err(`Skipped: ${note}\n`);
    io.out(`${before.version}\n`);
    return 0;
  },
};

/** DIR may be new, empty, or an earlier export; anything else is someone's files, left alone. */
async function checkTarget(out: string): Promise<void> {
  const exists = await stat(out).then(
    (s) => s,
    () => null,
  );
  if (!exists) return;
  if (!exists.isDirectory()) throw new CommandError(`${out} exists and is not a directory`);
  const names = await readdir(out);
  if (names.length > 0 && !names.includes(FILES.manifest)) {
    throw new CommandError(`${out} is not empty and holds no earlier export: choose another --out`);
  }
}

/** The snapshot a bake would write: in a project with locales, the document of every locale. */
const readSnapshot = ({ url, visitor, project }: ProjectAccess) =>
  project.locales
    ? (call(url, 'read the snapshot of every locale', () =>
        visitor.GET('/v1/snapshot', { params: { query: { locale: '*' } } }),
      ) as Promise<Schemas['Snapshot'] | SnapshotAll>)
    : call(url, 'read the snapshot', () => visitor.GET('/v1/snapshot'));

/**
 * One page's copies in each non-default locale (contract §14), by entry id: an editor's read in the
 * locale less what came through its fallbacks is its working copy; a member's `?copy=published` read
 * with `?fallback=false` holds exactly its published copies, as stored (reference ids, not resolved).
 */
async function localeCopies(
  { url, editor, project }: ProjectAccess,
  pageId: string,
): Promise<Map<string, Record<string, ExportedLocale>>> {
  const copies = new Map<string, Record<string, ExportedLocale>>();
  if (!project.locales) return copies;
  for (const { code } of project.locales.available) {
    if (code === project.locales.default) continue;
    const path = { id: pageId };
    const working = await call(url, `read the entries of ${pageId} in ${code}`, () =>
      editor.GET('/v1/content/{id}', { params: { path, query: { locale: code } } }),
    );
    const live = await call(url, `read the published entries of ${pageId} in ${code}`, () =>
      editor.GET('/v1/content/{id}', {
        params: { path, query: { copy: 'published', locale: code, fallback: false } },
      }),
    );
    const published = new Map(live.map((e) => [e.id, e.fields]));
    for (const entry of working) {
      const own = { ...entry.fields };
      for (const key of Object.keys(entry.fallbacks ?? {})) delete own[key];
      const state = entry.locales?.[code];
      copies.set(entry.id, {
        ...copies.get(entry.id),
        [code]: {
          status: state?.status ?? entry.status,
          publishedAt: state?.publishedAt ?? null,
          working: own,
          published: published.get(entry.id) ?? null,
        },
      });
    }
  }
  return copies;
}

async function readProject(
  access: ProjectAccess,
  snapshot: Schemas['Snapshot'] | SnapshotAll,
): Promise<Archive> {
  const { url, member, editor, project } = access;
  const skipped: string[] = [];
  // Every page: GET /v1/pages answers 1,000 at a time (a project may hold 20,000).
  const pages = await readAll((cursor) =>
    answer(url, 'list the pages', () =>
      member.GET('/v1/pages', { params: { query: { ...(cursor && { cursor }) } } }),
    ),
  );

  const definitions: Archive['definitions'] = {};
  const entries: ExportedEntry[] = [];
  for (const { pageId } of pages) {
    const path = { params: { path: { pageId } } };
    const defined = await call(url, `read the definitions of ${pageId}`, () =>
      member.GET('/v1/definitions/{pageId}', path),
    );
    if (defined.length > 0) {
      definitions[pageId] = defined.map(({ componentId, instanceKey, fields }) => ({
        componentId,
        instanceKey,
        fields: fields as Schemas['SyncBody']['components'][number]['fields'],
      }));
    }
    const content = { params: { path: { id: pageId } } };
    const working = await call(url, `read the entries of ${pageId}`, () =>
      editor.GET('/v1/content/{id}', content),
    );
    // As stored (reference ids): a visitor's read resolves references, which an import cannot write back.
    const live = await call(url, `read the published entries of ${pageId}`, () =>
      editor.GET('/v1/content/{id}', {
        params: { path: { id: pageId }, query: { copy: 'published', fallback: false } },
      }),
    );
    const published = new Map(live.map((e) => [e.id, e.fields]));
    const locales = await localeCopies(access, pageId);
    for (const entry of working) {
      const newestFirst = await readAll((cursor) =>
        answer(url, `read the history of ${entry.id}`, () =>
          member.GET('/v1/content/{entryId}/history', {
            params: { path: { entryId: entry.id }, query: { limit: 200, ...(cursor && { cursor }) } },
          }),
        ),
      );
      entries.push({
        pageId,
        instanceKey: entry.instanceKey,
        componentId: entry.componentId,
        id: entry.id,
        version: entry.version,
        status: entry.status,
        working: entry.fields,
        published: published.get(entry.id) ?? null,
        publishedAt: entry.publishedAt,
        updatedAt: entry.updatedAt,
        history: newestFirst.reverse(),
        ...(project.locales && { locales: locales.get(entry.id) ?? {} }),
      });
    }
  }

  const objects = {
    published: await call(url, 'read the published objects', () => member.GET('/v1/objects')),
    draft: await call(url, 'read the draft objects', () =>
      member.GET('/v1/objects', { params: { query: { draft: true } } }),
    ),
  };

  const records = await readAll((cursor) =>
    answer(url, 'list the media', () =>
      member.GET('/v1/media', { params: { query: { limit: 200, ...(cursor && { cursor }) } } }),
    ),
  );
  const media: ExportedMedia[] = records.map((record) => ({
    ...record,
    file: `${FILES.mediaDir}/${record.id}${extname(new URL(record.url).pathname)}`,
  }));

  let webhooks: Archive['webhooks'] = [];
  try {
    webhooks = (await call(url, 'list the webhooks', () => member.GET('/v1/webhooks'))).webhooks;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 403)) throw error;
    skipped.push('webhooks (listing them needs an admin of the project)');
  }

  const counts = {
    pages: pages.length,
    entries: entries.length,
    historyRows: entries.reduce((sum, e) => sum + e.history.length, 0),
    objects: objects.draft.length,
    media: media.length,
    webhooks: webhooks.length,
  };
  return {
    manifest: {
      format: FORMAT,
      formatVersion: project.locales ? FORMAT_VERSION_LOCALES : FORMAT_VERSION,
      exportedAt: new Date().toISOString(),
      source: { url, projectId: project.id, name: project.name },
      snapshotVersion: snapshot.version,
      counts,
      skipped,
    },
    project: {
      name: project.name,
      domains: project.domains,
      cdnUrl: project.cdnUrl,
      bakeEnabled: project.bakeEnabled,
      definitionSync: project.definitionSync,
      deployHooks: project.deployHooks,
      ...(project.locales && { locales: project.locales }),
    },
    definitions,
    entries,
    objects,
    media,
    webhooks,
    snapshot,
  };
}

/** A media file's bytes, from this server's own address of it (a cdnUrl may not serve it yet). */
async function download({ url, project }: ProjectAccess, media: ExportedMedia): Promise<Uint8Array> {
  const file = basename(new URL(media.url).pathname);
  const address = `${url}/media/${encodeURIComponent(project.id)}/${encodeURIComponent(file)}`;
  const response = await fetch(address).catch((error: Error) => {
    throw new ApiError('network', 0, `could not download ${media.id}: ${error.message}`);
  });
  if (!response.ok) {
    throw new ApiError('not_found', response.status, `could not download ${media.id} from ${address}`);
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length !== media.size) {
    throw new CommandError(`${media.id}: downloaded ${bytes.length} bytes, its record says ${media.size}`);
  }
  return bytes;
}
