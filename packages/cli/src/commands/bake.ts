import { rm, stat } from 'node:fs/promises';
import { call, folioClient } from '../api.js';
import type { Command } from '../command.js';
import { pathIn, writeAtomically } from '../files.js';
import { UsageError } from '../io.js';
import { stringOf } from '../options.js';
import { count } from '../report.js';

export const bake: Command = {
  name: 'bake',
  summary: 'write the published snapshot to a file for a build (GET /v1/snapshot)',
  help: `Usage: folio bake [--out FILE]

Reads the project's published snapshot (GET /v1/snapshot, with the publishable key, or a secret
key and --project) and writes it to FILE for a build to render from (createFolio({ snapshot })).
Prints the snapshot's version on stdout (what was baked, on stderr). The file is written whole or
not at all.

When the project's baking is off (bakeEnabled false, an admin's kill switch) nothing is written,
a snapshot left at FILE by an earlier bake is removed (so the site reads live), and the exit code
is still 0: a build goes on and reads live. Nothing is printed on stdout then.

Options:
  --out FILE           where to write it (default folio-snapshot.json)`,
  options: { out: { type: 'string', short: 'o' } },
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
    const snapshot = await call(connection.url, 'read the snapshot', () => client.GET('/v1/snapshot'));
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
    const pages = Object.keys(snapshot.content).length;
    const entries = Object.values(snapshot.content).reduce((sum, list) => sum + list.length, 0);
    const objects = new Set(snapshot.objectFields.map((f) => `${f.type}\u0000${f.id}`));
    for (const c of snapshot.objectCollections) objects.add(`${c.type}\u0000${c.id}`);
    io.err(
      `Baked ${count(pages, 'page')} (${count(entries, 'entry', 'entries')}) and ${count(objects.size, 'object')} into ${out}\n`,
    );
    io.out(`${snapshot.version}\n`);
    return 0;
  },
};
