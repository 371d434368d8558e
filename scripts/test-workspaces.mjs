#!/usr/bin/env node
/**
 * `npm test` at the root: every workspace's own `npm test`, one after another (they share the machine's
 * two cores and its PostgreSQL, so running them side by side would only slow each down), then one total.
 * Each workspace's runner ends with the plain line "N passed, N failed"; this adds them up and ends
 * with the same line, which is what CI reads. A workspace that prints no such line counts as a failure:
 * a runner that crashed before reporting must never look green. Arguments go to every workspace.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const summaryLine = /^(\d+) passed, (\d+) failed$/;

function workspaces() {
  const { workspaces: patterns } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  // npm resolves the globs; `npm query .workspace` lists them with their paths, in declaration order.
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['query', '.workspace', '--silent'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0)
        return reject(new Error(`npm query exited ${code} (workspaces: ${patterns.join(', ')})`));
      resolve(
        JSON.parse(out).map((ws) => ({
          name: ws.name,
          path: ws.realpath ?? ws.path,
          test: ws.scripts?.test,
        })),
      );
    });
  });
}

function runTests(ws) {
  return new Promise((resolve) => {
    process.stdout.write(`\n### ${ws.name} (${ws.path.slice(root.length) || '.'})\n`);
    const child = spawn('npm', ['run', '--silent', 'test', '--', ...args], {
      cwd: ws.path,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let last = null;
    let pending = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const match = summaryLine.exec(line.trim());
        if (match) last = { passed: Number(match[1]), failed: Number(match[2]) };
      }
    });
    child.on('close', (code) => {
      const match = summaryLine.exec(pending.trim());
      if (match) last = { passed: Number(match[1]), failed: Number(match[2]) };
      if (!last) {
        process.stdout.write(`${ws.name}: the test runner printed no summary (exit ${code})\n`);
        resolve({ passed: 0, failed: 1 });
      } else resolve(code === 0 ? last : { ...last, failed: Math.max(last.failed, 1) });
    });
  });
}

const list = (await workspaces()).filter((ws) => ws.test);
let passed = 0;
let failed = 0;
for (const ws of list) {
  const result = await runTests(ws);
  passed += result.passed;
  failed += result.failed;
}
process.stdout.write(
  `\nworkspaces: ${list.map((ws) => ws.name).join(', ')}\n${passed} passed, ${failed} failed\n`,
);
process.exitCode = failed === 0 ? 0 : 1;
