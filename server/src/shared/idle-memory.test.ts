import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { getHeapSpaceStatistics } from 'node:v8';
import { trimYoungGenerationWhenIdle } from './idle-memory.js';

const youngBytes = () =>
  getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;

it('gives back the young generation a burst grew, once the process is idle', async () => {
  // A burst: many short-lived objects, some surviving a scavenge or two, as requests make.
  let kept: object[] = [];
  for (let i = 0; i < 3_000_000; i++) {
    kept.push({ i });
    if (kept.length > 20_000) kept = [];
  }
  kept = [];
  const grown = youngBytes();
  assert.ok(grown > 4 * 1024 * 1024, `the burst grew the young generation (${grown} bytes)`);

  const stop = trimYoungGenerationWhenIdle(100);
  try {
    for (let waited = 0; waited < 5_000 && youngBytes() >= grown; waited += 100) await sleep(100);
  } finally {
    stop();
  }
  assert.ok(youngBytes() < grown, `shrunk from ${grown} to ${youngBytes()} bytes`);
  assert.equal((globalThis as { gc?: unknown }).gc, undefined, "the process's own global has no gc");
});

/**
 * The young generation's sizes, in MiB, as a fresh process allocates with some survivors until it
 * reaches LARGEST: each growth V8 makes on the way. In a child, so the flag starts at V8's default,
 * whose largest young generation is raised so that the way up has more steps than loading tsx takes.
 */
const LARGEST = 64;
function growthSteps(nodeArgs: string[], grow: boolean): number[] {
  const module = new URL('./idle-memory.ts', import.meta.url).href;
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    import { growYoungGenerationAtOnce } from ${JSON.stringify(module)};
    if (${grow}) growYoungGenerationAtOnce();
    const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576;
    const sizes = [young()];
    let kept = [];
    for (let i = 0; i < 5e7 && sizes.at(-1) < ${LARGEST}; i++) {
      kept.push({ i });
      if (kept.length > 20000) kept = [];
      if (young() !== sizes.at(-1)) sizes.push(young());
    }
    console.log(JSON.stringify(sizes));`;
  const out = execFileSync(
    process.execPath,
    [
      `--max-semi-space-size=${LARGEST / 2}`,
      ...nodeArgs,
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      script,
    ],
    { encoding: 'utf8' },
  );
  return JSON.parse(out) as number[];
}

it('grows the young generation to its working size in one step, not by doublings', () => {
  const doubling = growthSteps([], false);
  assert.ok(doubling.length >= 4, `V8 alone doubles it: ${doubling.join(' → ')} MiB`);
  const atOnce = growthSteps([], true);
  assert.equal(atOnce.at(-1), LARGEST, `reached ${atOnce.join(' → ')} MiB`);
  assert.ok(atOnce.length <= 2, `grown in one step: ${atOnce.join(' → ')} MiB`);
});

it("leaves a growth factor given on node's command line as it is", () => {
  const steps = growthSteps(['--semi-space-growth-factor=2'], true);
  assert.ok(steps.length >= 4, `still doubling: ${steps.join(' → ')} MiB`);
});
