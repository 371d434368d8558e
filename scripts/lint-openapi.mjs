#!/usr/bin/env node
/**
 * `npm run lint:openapi`: Redocly's recommended rules (redocly.yaml) on the committed OpenAPI document,
 * failing on any warning as well as any error: redocly itself exits 0 on warnings, and a document a
 * generator can trust has neither. Prints the problems (stylish) and one line with the counts.
 */
import { spawnSync } from 'node:child_process';

const redocly = (format) =>
  spawnSync('npx', ['--no-install', 'redocly', 'lint', `--format=${format}`, '--max-problems=500'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

const json = redocly('json');
let totals;
try {
  totals = JSON.parse(json.stdout).totals;
} catch {
  process.stderr.write(`redocly lint did not run:\n${json.stderr}${json.stdout}\n`);
  process.exit(1);
}
if (totals.errors + totals.warnings > 0) process.stdout.write(redocly('stylish').stdout);
process.stdout.write(
  `redocly lint: ${totals.errors} errors, ${totals.warnings} warnings (${totals.ignored} ignored in .redocly.lint-ignore.yaml)\n`,
);
process.exitCode = totals.errors + totals.warnings > 0 ? 1 : 0;
