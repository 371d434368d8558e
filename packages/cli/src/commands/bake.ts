import { rm, stat } from 'node:fs/promises';
import type { FolioClient, Schemas } from '@folio/client';
import { call, folioClient } from '../api.js';
import type { SnapshotAll } from '../archive/format.js';
import type { Command } from '../command.js';
import { pathIn, writeAtomically } from '../files.js';
import { ApiError, UsageError } from '../io.js';
import { stringOf } from '../options.js';
import { count } from '../report.js';

export const bake: Command = {
  name: 'bake',
  summary: 'write the published snapshot to a file for a build (GET /v1/snapshot)',
  help: `Usage: folio bake [--out FILE] [--locale CODE|*]

Reads the project's published snapshot (GET /v1/snapshot, with the publishable key, or a secret
key and --project) and writes it to FILE for a build to render from (createFolio({ snapshot })).
Prints the snapshot's version on stdout (what was baked, on stderr). The file is written whole or
not at all.

Languages: in a project with locales, FILE holds every locale (GET /v1/snapshot?locale=*, one
document whose version is the one a repository dispatch carries); createFolio({ snapshot, locale })
reads the locale it is given from it. --locale CODE writes that locale's snapshot alone (a build
per language); --locale '*' insists on the document of every locale. A project without locales
is baked as before (the API answers ?locale=* with a 400, and the plain snapshot is read).

When the project's baking is off (bakeEnabled false, an admin's kill switch) nothing is written,
a snapshot left at FILE by an earlier bake is removed (so the site reads live), and the exit code
is still 0: a build goes on and reads live. Nothing is printed on stdout then.

Options:
  --out FILE           where to write it (default folio-snapshot.json)`,
  options: { out: { type: 'string', short: 'o' }, locale: { type: 'string' } },
  connection: 'all',
  positionals: { min: 0, max: 0 },

  async run({ values, io, connection }) {
    const out = pathIn(io.cwd, stringOf(values, 'out') ?? 'folio-snapshot.json');
    if (!connection.key && !connection.secretKey) {
      throw new UsageError(
        'bake needs the publishable key (--key or FOLIO_KEY) or a secret key (--secret-key or FOLIO_SECRET_KEY)',
      );
    }
    const client = folioClient(
      connection.url,
      connection.key
        ? { publishableKey: connection.key }
        : { secretKey: connection.secretKey, projectId: connection.project },
    );
    const snapshot = await readSnapshot(client, connection.url, stringOf(values, 'locale'));
    if (!snapshot.bakeEnabled) {
      const stale = await stat(out).then(
        () => true,
        () => false,
      );
      if (stale) await rm(out, { force: true });
      io.err(
        `Baking is off for this project (bakeEnabled is false): no snapshot written${
          stale ? `, and the earlier ${out} removed` : ''
        }. The site reads live.\n`,
      );
      return 0;
    }
    await writeAtomically(out, `${JSON.stringify(snapshot)}\n`);
    const objects = new Set(snapshot.objectFields.map((f) => `${f.type}\u0000${f.id}`));
    for (const c of snapshot.objectCollections) objects.add(`${c.type}\u0000${c.id}`);
    io.err(`Baked ${contentOf(snapshot)} and ${count(objects.size, 'object')} into ${out}\n`);
    io.out(`${snapshot.version}\n`);
    return 0;
  },
};

/** What a snapshot holds, in words: pages and entries, and its locales. */
function contentOf(snapshot: OneLocale | SnapshotAll): string {
  if ('locales' in snapshot) {
    const codes = Object.keys(snapshot.locales);
    const pages = new Set(Object.values(snapshot.locales).flatMap((content) => Object.keys(content)));
    return `${count(pages.size, 'page')} in ${count(codes.length, 'locale')} (${codes.join(', ')})`;
  }
  const pages = Object.keys(snapshot.content).length;
  const entries = Object.values(snapshot.content).reduce((sum, list) => sum + list.length, 0);
  const locale = snapshot.locale ? ` in ${snapshot.locale}` : '';
  return `${count(pages, 'page')} (${count(entries, 'entry', 'entries')})${locale}`;
}

/** One locale's snapshot (`locale` set in a project with locales). */
type OneLocale = Schemas['Snapshot'];

/**
 * What to bake: `--locale` as given, else every locale's document, else (a project without locales,
 * whose API refuses any `locale` with a 400 at query.locale) the plain snapshot, as before languages.
 */
async function readSnapshot(
  client: FolioClient,
  url: string,
  locale: string | undefined,
): Promise<OneLocale | SnapshotAll> {
  const read = (query: { locale?: string }, what = 'read the snapshot') =>
    call(url, what, () => client.GET('/v1/snapshot', { params: { query } })) as Promise<
      OneLocale | SnapshotAll
    >;
  if (locale !== undefined) return read({ locale }, `read the snapshot of locale ${locale}`);
  try {
    return await read({ locale: '*' });
  } catch (error) {
    const noLocales =
      error instanceof ApiError &&
      error.status === 400 &&
      JSON.stringify(error.details ?? null).includes('query.locale');
    if (!noLocales) throw error;
    return read({});
  }
}
