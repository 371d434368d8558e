import { basename } from 'node:path';
import type { FolioClient, Schemas } from '@folio/client';
import { answer, call } from '../api.js';
import { importEntries } from '../archive/entries.js';
import { type Archive, type ExportedEntry, isSnapshotAll } from '../archive/format.js';
import {
  entryRewrite,
  type MediaMoves,
  mediaRewrite,
  type Rewrite,
  rewriter,
} from '../archive/media-refs.js';
import { importObjects } from '../archive/objects.js';
import { openProject, type ProjectAccess } from '../archive/project.js';
import { mediaBytes, readArchive } from '../archive/read.js';
import { allLocalesVersion, snapshotVersion } from '../canonical.js';
import type { Command } from '../command.js';
import { pathIn } from '../files.js';
import { ApiError, CommandError, type Io } from '../io.js';
import { count, describeError } from '../report.js';

export const importProject: Command = {
  name: 'import',
  summary: 'import a "folio export" directory into an empty project',
  help: `Usage: folio import DIR [--keep-media-urls] [--skip-history]

Imports an export (see "folio export") into the project of the session (--token; --project when it
has several), which must be empty: make one with "folio create-project". Needs an admin's session.
In order: the project's settings (its locales among them), media files, definitions, entries
(publish history replayed, then published and working copies, in every locale), objects
(published, then drafts), the definitions' fields, webhooks, deploy hooks. Then the new snapshot's
version is checked against the export's (in a project with locales, that of every locale:
?locale=*).

Entries keep their exported ids where this server has no entry with the id (then the snapshot's
version is the export's); an id some entry already holds (on this project or another) is changed,
listed ("Entry ids: ... changed"), and references to it are rewritten.

What the API cannot reproduce, and what import does instead:
  times, versions      new ones (entries.json keeps the old times and history actors)
  history              replayed: the same publishes and unpublishes in the same order, by you, now
  media                uploaded again: new ids and addresses; every imported value that held an
                       exported file's address or id is rewritten to the new one, so images keep
                       working; the snapshot version then equals the export's with those addresses
                       replaced (checked); --keep-media-urls imports values as they were instead
  references           an id of an exported entry that had to change becomes the new id, anywhere
                       in a value
  webhooks             created with new secrets, printed once, and inactive: give each receiver its
                       new secret, then activate it (dashboard, or PATCH /v1/webhooks/:id)
  deploy hooks         those without a secret are re-created; those with one are listed to re-add
  name                 the target project keeps its own

Options:
  --keep-media-urls    leave media addresses in values as exported (the snapshot version stays
                       equal when no entry is referenced, but addresses still point at the old
                       server's files)
  --skip-history       make only the end state of each entry, without replaying its history`,
  options: { 'keep-media-urls': { type: 'boolean' }, 'skip-history': { type: 'boolean' } },
  connection: 'all',
  positionals: { min: 1, max: 1 },

  async run({ values, positionals, io, connection }) {
    const dir = pathIn(io.cwd, positionals[0]!);
    const archive = await readArchive(dir);
    const access = await openProject(connection, 'import');
    const { url, member, editor, project } = access;
    await checkEmpty(access);
    const from = archive.manifest.source;
    io.err(
      `Importing "${from.name}" (${from.projectId}, exported ${archive.manifest.exportedAt}) into "${project.name}" (${project.id}) at ${url}\n`,
    );

    const { domains, cdnUrl, definitionSync, bakeEnabled } = archive.project;
    // Locales first: an entry's values are written per locale (contract §14).
    const locales = archive.project.locales ?? null;
    await call(url, 'update the project settings', () =>
      member.PATCH('/v1/projects/{id}', {
        params: { path: { id: project.id } },
        body: { domains, cdnUrl, definitionSync, bakeEnabled, ...(locales && { locales }) },
      }),
    );

    const moves = await uploadMedia(access, dir, archive, io);
    const keep = values['keep-media-urls'] === true;
    const media = keep ? undefined : mediaRewrite(moves);
    const rewrites = media ? [media] : [];

    // Definitions twice: first without fields, so values a definition's current field types would
    // refuse (a type changed after they were published) are stored as they were; then as exported.
    // The first creates the entries, with their exported ids where this server has no entry with one.
    const changedIds = await syncDefinitions(access, archive, false);
    reportIds(archive, changedIds, io);
    const entries = await importEntries(
      {
        url,
        editor,
        rewrites,
        replayHistory: values['skip-history'] !== true,
        locales,
        localizedOf: localizedKeys(archive),
      },
      archive.entries,
    );
    await syncDefinitions(access, archive, true);
    const objects = await importObjects(
      { url, member, rewriter: rewriter(...rewrites, entryRewrite(entries.ids)) },
      archive.objects,
    );
    io.err(
      `Imported ${count(moves.moved.size, 'media file')}, ${count(entries.entries, 'entry', 'entries')} (${count(entries.publishes, 'publish', 'publishes')}), ${count(objects.published, 'published object')} and ${count(objects.drafts, 'object draft')}\n`,
    );

    // Past this point the content is in: a hook the new server refuses (an address it does not
    // allow, say) is reported and the rest goes on; the exit code is then 1.
    let problems = await createWebhooks(access, archive, io);
    problems += await restoreDeployHooks(access, archive, io);
    await checkSnapshot(access, archive, { media, entries: entryRewrite(entries.ids) }, io);
    if (problems > 0) io.err(`Imported, with ${count(problems, 'problem')} listed above.\n`);
    return problems > 0 ? 1 : 0;
  },
};

/** Import never merges into existing content: what would win, and what would the version mean? */
async function checkEmpty({ url, member, project }: ProjectAccess): Promise<void> {
  const pages = await call(url, 'list the pages', () => member.GET('/v1/pages'));
  const objects = await call(url, 'list the objects', () =>
    member.GET('/v1/objects', { params: { query: { draft: true } } }),
  );
  const media = await call(url, 'list the media', () =>
    member.GET('/v1/media', { params: { query: { limit: 1 } } }),
  );
  const hooks = await call(url, 'list the webhooks', () => member.GET('/v1/webhooks')).catch((error) => {
    // The first route of the import an editor may not use: say what is needed, before anything is written.
    if (error instanceof ApiError && error.status === 403) {
      throw new CommandError(`import needs an admin of project ${project.id}: ${describeError(error)}`);
    }
    throw error;
  });
  const held = [
    pages.length > 0 && `${pages.length} pages`,
    objects.length > 0 && `${objects.length} objects`,
    media.length > 0 && 'media files',
    hooks.webhooks.length > 0 && `${hooks.webhooks.length} webhooks`,
  ].filter(Boolean);
  if (held.length > 0) {
    throw new CommandError(
      `project ${project.id} is not empty (it has ${held.join(', ')}): import into a new project ("folio create-project")`,
    );
  }
}

async function uploadMedia(
  { url, member }: ProjectAccess,
  dir: string,
  archive: Archive,
  io: Io,
): Promise<MediaMoves> {
  const moved: MediaMoves['moved'] = new Map();
  // Oldest first, so the new library lists them in the same order (newest first).
  for (const media of [...archive.media].reverse()) {
    const bytes = await mediaBytes(dir, media.file);
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: media.mimeType }), media.filename || basename(media.file));
    const created = await call(url, `upload ${media.file}`, () =>
      // openapi-fetch sends FormData as it is (fetch sets the multipart boundary).
      member.POST('/v1/media/upload', { body: form as unknown as { file: string } }),
    );
    moved.set(media.id, { id: created.id, url: created.url });
  }
  if (moved.size > 0) io.err(`Uploaded ${count(moved.size, 'media file')}\n`);
  return { fromProject: archive.manifest.source.projectId, moved };
}

/** The `localized` top-level keys of each exported entry, from its declaration (contract §14). */
function localizedKeys(archive: Archive): (entry: ExportedEntry) => ReadonlySet<string> {
  const keys = new Map<string, Set<string>>();
  for (const [pageId, components] of Object.entries(archive.definitions)) {
    for (const c of components) {
      const localized = c.fields.filter((f) => (f as { localized?: boolean }).localized === true);
      keys.set(`${pageId}\n${c.instanceKey}`, new Set(localized.map((f) => f.key)));
    }
  }
  return (entry) => keys.get(`${entry.pageId}\n${entry.instanceKey}`) ?? new Set();
}

/**
 * The first sync declares no field, so that no type refuses a value stored as it was exported; only
 * `localized` fields are declared, as `json` (any value), since which locale a value belongs to
 * depends on it. The second sync declares the fields as exported.
 */
const placeholders = (fields: Archive['definitions'][string][number]['fields']) =>
  fields
    .filter((f) => (f as { localized?: boolean }).localized === true)
    .map((f) => ({ key: f.key, type: 'json' as const, localized: true }));

/** An id the import asked for and did not get: the entry's new id. */
interface ChangedId {
  pageId: string;
  instanceKey: string;
  requested: string;
  id: string;
}

/**
 * Syncs every page's definitions. The first sync (`withFields` false) creates the entries and asks
 * for each one's exported id (`entryId`, a member's sync: contract §17 keeps ids in snapshots, so a
 * kept id keeps the snapshot's version); the server uses it unless an entry holds it, and answers
 * the ones it had to change.
 */
async function syncDefinitions(
  { url, member }: ProjectAccess,
  archive: Archive,
  withFields: boolean,
): Promise<ChangedId[]> {
  const exportedIds = new Map(archive.entries.map((e) => [`${e.pageId}\n${e.instanceKey}`, e.id]));
  const changed: ChangedId[] = [];
  for (const [pageId, components] of Object.entries(archive.definitions)) {
    const body = {
      pageId,
      components: components.map((c) => {
        const entryId = withFields ? undefined : exportedIds.get(`${pageId}\n${c.instanceKey}`);
        return {
          ...c,
          fields: withFields ? c.fields : placeholders(c.fields),
          ...(entryId && { entryId }),
        };
      }),
    };
    const answer = await call(url, `sync the definitions of ${pageId}`, () =>
      member.POST('/v1/definitions/sync', { params: { query: { dryRun: false } }, body }),
    );
    const ids = 'changedIds' in answer ? (answer.changedIds ?? []) : [];
    for (const c of ids) changed.push({ pageId, ...c });
  }
  return changed;
}

/** Which exported ids the entries kept, and each one the server had to change (an entry held it). */
function reportIds(archive: Archive, changed: ChangedId[], io: Io): void {
  const kept = archive.entries.length - changed.length;
  if (changed.length === 0) {
    io.err(`Entry ids: all ${kept} kept.\n`);
    return;
  }
  io.err(
    `Entry ids: ${kept} kept, ${changed.length} changed (an entry on this server already had the id; references to it are rewritten):\n`,
  );
  for (const c of changed) io.err(`  ${c.pageId} ${c.instanceKey}: ${c.requested} → ${c.id}\n`);
}

async function createWebhooks({ url, member }: ProjectAccess, archive: Archive, io: Io): Promise<number> {
  if (archive.webhooks.length === 0) return 0;
  let problems = 0;
  io.out('Webhooks (created inactive; each secret is shown this once):\n');
  for (const hook of archive.webhooks) {
    try {
      const created = await call(url, `create the webhook for ${hook.url}`, () =>
        member.POST('/v1/webhooks', {
          body: {
            url: hook.url,
            events: hook.events as Schemas['CreateWebhookBody']['events'],
            description: hook.description,
          },
        }),
      );
      await deactivate(member, url, created.id);
      io.out(
        `  ${created.id}  ${hook.url}  ${hook.events.join(',')}  secret ${created.secret}${hook.active ? '' : '  (was inactive)'}\n`,
      );
    } catch (error) {
      problems++;
      io.err(`${describeError(error)}\n`);
    }
  }
  io.out(
    'Give each receiver its new secret, then activate the webhook (the dashboard, or PATCH /v1/webhooks/:id { "active": true }).\n',
  );
  return problems;
}

const deactivate = (member: FolioClient, url: string, id: string) =>
  call(url, `deactivate webhook ${id}`, () =>
    member.PATCH('/v1/webhooks/{id}', { params: { path: { id } }, body: { active: false } }),
  );

/** Deploy hooks last, so the import's own publishes trigger no deploy before they are all made. */
async function restoreDeployHooks({ url, member, project }: ProjectAccess, archive: Archive, io: Io) {
  const hooks: NonNullable<Schemas['UpdateProjectBody']['deployHooks']> = [];
  for (const hook of archive.project.deployHooks) {
    if (hook.hasSecret) {
      io.err(
        `Deploy hook "${hook.id}" (${hook.type}, ${hook.url}) had a secret, which is never exported: add it again with its secret in the project settings.\n`,
      );
    } else hooks.push({ id: hook.id, type: hook.type, url: hook.url });
  }
  if (hooks.length === 0) return 0;
  try {
    await call(url, 'restore the deploy hooks', () =>
      member.PATCH('/v1/projects/{id}', {
        params: { path: { id: project.id } },
        body: { deployHooks: hooks },
      }),
    );
    return 0;
  } catch (error) {
    io.err(`${describeError(error)}\n`);
    return 1;
  }
}

/**
 * The proof of the import: the new snapshot's version against the one the export's snapshot must
 * have here — the same, or with media addresses and entry ids replaced (computed as the server does:
 * contract §3).
 */
async function checkSnapshot(
  { url, visitor }: ProjectAccess,
  archive: Archive,
  moves: { media?: Rewrite; entries: Rewrite },
  io: Io,
): Promise<void> {
  const every = isSnapshotAll(archive.snapshot);
  const snapshot = (
    await answer(url, 'read the new snapshot', () =>
      visitor.GET('/v1/snapshot', { params: { query: every ? { locale: '*' } : {} } }),
    )
  ).data;
  const media = moves.media ? rewriter(moves.media) : rewriter();
  const entries = rewriter(moves.entries);
  const moved = entries.rewrite(media.rewrite(archive.snapshot));
  const replaced = [
    media.count > 0 && count(media.count, 'media address', 'media addresses'),
    entries.count > 0 && count(entries.count, 'entry id'),
  ].filter(Boolean);
  const expected =
    replaced.length === 0
      ? archive.snapshot.version
      : isSnapshotAll(moved)
        ? allLocalesVersion(moved)
        : snapshotVersion(moved);
  if (snapshot.version !== expected) {
    const what = [media.count > 0 && 'media addresses', entries.count > 0 && 'entry ids'].filter(Boolean);
    throw new CommandError(
      `the new snapshot is ${snapshot.version}, the export's ${expected}${
        what.length > 0 ? ` (with ${what.join(' and ')} replaced)` : ''
      }: the published content differs`,
    );
  }
  io.err(
    replaced.length > 0
      ? `Snapshot ${snapshot.version}: the export's published content with ${replaced.join(' and ')} replaced (exported as ${archive.snapshot.version}).\n`
      : `Snapshot ${snapshot.version}: the same as the export's.\n`,
  );
  io.out(`${snapshot.version}\n`);
}
