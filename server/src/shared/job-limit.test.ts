import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { AppError } from './errors.js';
import { createJobLimit } from './job-limit.js';

it('runs one job at a time, queues a bounded number, refuses the rest with 503 unavailable', async () => {
  const limit = createJobLimit({ running: 1, waiting: 2, retryAfterSeconds: 3 });
  let concurrent = 0;
  let most = 0;
  const job = async () => {
    concurrent += 1;
    most = Math.max(most, concurrent);
    await new Promise((r) => setTimeout(r, 10));
    concurrent -= 1;
    return 'done';
  };
  const results = await Promise.allSettled([1, 2, 3, 4, 5].map(() => limit.run(job)));
  assert.equal(most, 1);
  assert.deepEqual(
    results.map((r) => r.status),
    ['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected'],
  );
  const refused = (results[3] as PromiseRejectedResult).reason as AppError;
  assert.equal(refused.code, 'unavailable');
  assert.equal(refused.statusCode, 503);
  assert.equal(refused.headers?.['retry-after'], '3');
  assert.deepEqual(limit.load, { running: 0, waiting: 0 });
});

it('a failing job frees its slot', async () => {
  const limit = createJobLimit({ running: 1, waiting: 1, retryAfterSeconds: 1 });
  await assert.rejects(limit.run(async () => Promise.reject(new Error('boom'))));
  assert.equal(await limit.run(async () => 7), 7);
  assert.deepEqual(limit.load, { running: 0, waiting: 0 });
});
