import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { afterFailure, failedAttempt, isGone } from './attempts.js';

/** A seeded random (mulberry32): the same sequence every run, spread over [0, 1). */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('afterFailure', () => {
  const schedule = [1_000, 10_000, 60_000];
  const now = 1_700_000_000_000;

  it('waits the next step of the schedule plus at most 20% jitter, never less', () => {
    const random = seeded(42);
    for (let i = 0; i < 1_000; i++) {
      const step = i % schedule.length;
      const next = afterFailure(schedule, step, null, now, random);
      assert.equal(next.status, 'pending');
      if (next.status !== 'pending') return;
      const wait = next.nextAttemptAt - now;
      assert.ok(wait >= schedule[step]!, `wait ${wait} shorter than the schedule`);
      assert.ok(wait <= Math.round(schedule[step]! * 1.2), `wait ${wait} above 20% jitter`);
      assert.equal(next.scheduleStep, step + 1);
    }
  });

  it('spreads retries out: seeded jitter gives different waits for the same step', () => {
    const random = seeded(7);
    const waits = new Set(
      Array.from({ length: 20 }, () => {
        const next = afterFailure(schedule, 1, null, now, random);
        return next.status === 'pending' ? next.nextAttemptAt : 0;
      }),
    );
    assert.ok(waits.size > 10, `only ${waits.size} distinct waits`);
  });

  it('is exact at the bounds of the random value', () => {
    assert.deepEqual(
      afterFailure(schedule, 0, null, now, () => 0),
      {
        status: 'pending',
        nextAttemptAt: now + 1_000,
        scheduleStep: 1,
      },
    );
    const top = afterFailure(schedule, 0, null, now, () => 0.999_999);
    assert.equal(top.status === 'pending' && top.nextAttemptAt, now + 1_200);
  });

  it('fails once the schedule is used up', () => {
    assert.deepEqual(afterFailure(schedule, 3, null, now, seeded(1)), { status: 'failed' });
    assert.deepEqual(afterFailure([], 0, null, now, seeded(1)), { status: 'failed' });
  });

  it('a Retry-After lengthens the wait, never shortens it, and is capped at a day', () => {
    const longer = afterFailure(schedule, 0, 30, now, () => 0);
    assert.equal(longer.status === 'pending' && longer.nextAttemptAt, now + 30_000);
    const shorter = afterFailure(schedule, 2, 1, now, () => 0);
    assert.equal(shorter.status === 'pending' && shorter.nextAttemptAt, now + 60_000);
    const capped = afterFailure(schedule, 0, 10 * 86_400, now, () => 0);
    assert.equal(capped.status === 'pending' && capped.nextAttemptAt, now + 86_400_000);
  });
});

describe('attempt outcomes', () => {
  it('only a 410 is gone', () => {
    assert.ok(isGone(failedAttempt('gone', { responseCode: 410 })));
    assert.ok(!isGone(failedAttempt('not found', { responseCode: 404 })));
    assert.ok(!isGone(failedAttempt('network')));
  });

  it('a failed attempt records no answer; final only when asked', () => {
    assert.deepEqual(failedAttempt('webhook is inactive', { final: true }), {
      ok: false,
      responseCode: null,
      durationMs: 0,
      error: 'webhook is inactive',
      responseBody: null,
      retryAfterSeconds: null,
      final: true,
    });
    assert.equal('final' in failedAttempt('timeout', { durationMs: 5 }), false);
  });
});
