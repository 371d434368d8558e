import assert from 'node:assert/strict';
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
