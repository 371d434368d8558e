import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';

describe('leak check', () => {
  it('fails a test that leaves a receiver running, stops it, and passes the next test', async () => {
    const root = new URL('..', import.meta.url).pathname;
    // Its own node:test process (run() cannot nest): NODE_TEST_CONTEXT would make it report to us.
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--test', '--test-reporter=spec', 'test/fixtures/leaky-suite.ts'],
      { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      output += c.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 1, output);
    assert.match(output, /✖ leaves its receiver running/);
    assert.match(output, /the test left running: webhook receiver on port \d+/);
    assert.match(output, /✔ closes its receiver/);
    assert.match(output, /pass 1\b/);
    assert.match(output, /fail 1\b/);
  });
});
