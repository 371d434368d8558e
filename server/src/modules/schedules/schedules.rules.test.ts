import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../shared/errors.js';
import { checkScheduleInput, decodeScheduleCursor, latestAt, scheduleCursor } from './schedules.rules.js';

const now = Date.parse('2026-11-21T09:30:00.000Z');
const problemsOf = (fn: () => unknown): { path: string; message: string }[] => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof AppError);
    assert.equal(err.statusCode, 400);
    return err.details as { path: string; message: string }[];
  }
  assert.fail('expected a 400');
};

describe('checkScheduleInput', () => {
  it('accepts one target and a time ahead, stored as UTC with milliseconds', () => {
    assert.deepEqual(
      checkScheduleInput({ action: 'publish', entryId: 'ent_1', at: '2026-11-21T12:30:00+02:00' }, now),
      { target: { entryId: 'ent_1', pageId: null }, at: '2026-11-21T10:30:00.000Z' },
    );
    assert.deepEqual(
      checkScheduleInput({ action: 'publish', entryId: null, pageId: '/', at: '2026-12-01T00:00:00Z' }, now)
        .target,
      { entryId: null, pageId: '/' },
    );
  });

  it('refuses both targets, neither, and a page to unpublish', () => {
    const at = '2026-12-01T00:00:00Z';
    assert.equal(problemsOf(() => checkScheduleInput({ action: 'publish', at }, now))[0]?.path, 'body');
    assert.equal(
      problemsOf(() => checkScheduleInput({ action: 'publish', entryId: 'e', pageId: '/', at }, now))[0]
        ?.path,
      'body',
    );
    assert.equal(
      problemsOf(() => checkScheduleInput({ action: 'unpublish', pageId: '/', at }, now))[0]?.path,
      'body.pageId',
    );
  });

  it('refuses now, the past and more than a year ahead; a year to the millisecond is accepted', () => {
    for (const at of ['2026-11-21T09:30:00.000Z', '2020-01-01T00:00:00Z', '2027-11-21T09:30:00.001Z']) {
      const problems = problemsOf(() => checkScheduleInput({ action: 'publish', entryId: 'e', at }, now));
      assert.deepEqual(
        problems.map((p) => p.path),
        ['body.at'],
        at,
      );
    }
    assert.equal(new Date(latestAt(now)).toISOString(), '2027-11-21T09:30:00.000Z');
    checkScheduleInput({ action: 'publish', entryId: 'e', at: '2027-11-21T09:30:00.000Z' }, now);
  });

  it('lists every problem at once', () => {
    const problems = problemsOf(() =>
      checkScheduleInput({ action: 'unpublish', at: '2001-01-01T00:00:00Z' }, now),
    );
    assert.deepEqual(
      problems.map((p) => p.path),
      ['body', 'body.at'],
    );
  });
});

describe('schedule cursors', () => {
  const id = 'sch_01JD3ZK4Q7M2X8V5B6N9C0R1T2';
  const at = '2026-11-21T09:30:00.000Z';

  it('a pending row continues by (at, id), a past one by id', () => {
    assert.deepEqual(decodeScheduleCursor(scheduleCursor({ id, status: 'pending', at }), undefined), {
      part: 'pending',
      at,
      id,
    });
    assert.deepEqual(decodeScheduleCursor(scheduleCursor({ id, status: 'done', at }), 'done'), {
      part: 'past',
      id,
    });
  });

  it('a cursor of the other part, or made up, is a 400', () => {
    assert.equal(
      problemsOf(() => decodeScheduleCursor(scheduleCursor({ id, status: 'pending', at }), 'done')).length,
      1,
    );
    assert.equal(
      problemsOf(() => decodeScheduleCursor(scheduleCursor({ id, status: 'failed', at }), 'pending')).length,
      1,
    );
    for (const text of ['nonsense', `x|${id}`, `${at}|nope`]) {
      problemsOf(() => decodeScheduleCursor(Buffer.from(text).toString('base64url'), undefined));
    }
  });
});
