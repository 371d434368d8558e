// dist/server.js: bundled by scripts/bundle.ts beside dist/server.cjs, the process itself (src/server.ts).
import { fileURLToPath } from 'node:url';
import { runBundle } from './run-bundle.js';

runBundle(fileURLToPath(new URL('./server.cjs', import.meta.url)));
