#!/usr/bin/env node
import { createInterface } from 'node:readline/promises';
import { run } from './cli.js';

/** A question on stderr (stdout stays the command's result), answered on stdin. */
async function ask(question: string): Promise<boolean> {
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await terminal.question(`${question} [y/N] `)).trim());
  } finally {
    terminal.close();
  }
}

process.exitCode = await run(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  ask: process.stdin.isTTY && process.stderr.isTTY ? ask : undefined,
});
