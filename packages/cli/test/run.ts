/** `npm test`: the CLI's test files, through the SDK's runner (SQLite, and PostgreSQL when set). */
import { runTests } from '../../sdk/test/harness/runner.js';

process.exitCode = await runTests(new URL('.', import.meta.url).pathname, process.argv.slice(2));
