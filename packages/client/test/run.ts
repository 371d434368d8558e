/**
 * `npm test`: every *.test.ts under test/ (or those whose path contains an argument), then the plain
 * line "N passed, N failed" that the root runner adds up. A cancelled test (timeout, crash) is a failure.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';

const dir = new URL('.', import.meta.url).pathname;
const filter = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => join(dir, name))
  .filter((file) => filter.length === 0 || filter.some((part) => file.includes(part)))
  .sort();

let passed = 0;
let failed = 0;
const stream = run({ files, concurrency: 1, timeout: 120_000 });
stream.on('test:diagnostic', (event: { message: string; nesting: number }) => {
  const match = /^(pass|fail|cancelled) (\d+)$/.exec(event.message);
  if (match && event.nesting === 0) {
    if (match[1] === 'pass') passed = Number(match[2]);
    else failed += Number(match[2]);
  }
});
await new Promise<void>((resolve, reject) => {
  const out = stream.compose(new spec());
  out.pipe(process.stdout, { end: false });
  out.on('end', resolve);
  out.on('error', reject);
});
process.stdout.write(`${passed} passed, ${failed} failed\n`);
// A filter that matches no file here runs nothing, which is not a failure of this workspace.
process.exitCode = failed > 0 || (passed === 0 && files.length > 0) ? 1 : 0;
