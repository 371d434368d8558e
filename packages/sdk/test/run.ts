/** `npm test`: the SDK's test files (harness/runner.ts); arguments filter them by path. */
import { runTests } from './harness/runner.js';

process.exitCode = await runTests(new URL('.', import.meta.url).pathname, process.argv.slice(2));
