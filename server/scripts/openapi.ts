/**
 * Writes the OpenAPI document the running server would serve at /v1/openapi.json, without listening:
 * the app is built on a throwaway SQLite database in a temp directory and `app.swagger()` is printed.
 *
 *   node --import tsx server/scripts/openapi.ts <file>           write the document to <file>
 *   node --import tsx server/scripts/openapi.ts --check <file>   fail when <file> differs from it
 *
 * The committed copy (packages/client/openapi.json) is what the typed client is generated from;
 * `npm run openapi` at the root rewrites it and the types, and CI runs the check (drift).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { stableDocument } from './stable-json.js';

async function currentDocument(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-openapi-'));
  const config = loadConfig({ LOG_LEVEL: 'silent', CMS_DATA_DIR: dataDir });
  const database = await openDatabase(config.database);
  try {
    await migrateToLatest(database.db);
    const app = await buildApp({ config, database });
    try {
      await app.ready();
      return stableDocument(app.swagger());
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(args: string[]): Promise<number> {
  const check = args[0] === '--check';
  const file = check ? args[1] : args[0];
  if (!file) {
    process.stderr.write('usage: openapi.ts [--check] <file>\n');
    return 2;
  }
  const document = await currentDocument();
  if (!check) {
    writeFileSync(file, document);
    return 0;
  }
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    // A missing file is drift like any other.
  }
  if (committed === document) return 0;
  process.stderr.write(
    `${file} is not the document the server generates (the routes' schemas changed).\n` +
      'Run `npm run openapi` at the repository root and commit the result.\n',
  );
  return 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`${(err as Error).stack}\n`);
    process.exit(1);
  },
);
