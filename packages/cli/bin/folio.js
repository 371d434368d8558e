#!/usr/bin/env node
/**
 * The `folio` command as npm links it (node_modules/.bin/folio). This file is committed, not built:
 * npm links a package's bin only if the file exists when it installs, and on a fresh clone
 * dist/bin.js does not exist until the root's `prepare` builds it, after the links are made; a
 * bin pointing at dist/ left `npx folio` with "could not determine executable to run" until a
 * second install. It only loads the built code, so it holds nothing that could drift from src/.
 */
import { existsSync } from 'node:fs';

const built = new URL('../dist/bin.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  process.stderr.write(
    'folio: @folio/cli is not built yet (dist/bin.js is missing). Run "npm install" at the repository root, or "npm run build -w @folio/cli".\n',
  );
  process.exitCode = 1;
}
