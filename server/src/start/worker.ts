// dist/worker.js: bundled by scripts/bundle.ts beside dist/worker.cjs, the process itself (src/worker.ts).
import { fileURLToPath } from 'node:url';
import { runBundle } from './run-bundle.js';

runBundle(fileURLToPath(new URL('./worker.cjs', import.meta.url)));
