import assert from 'node:assert/strict';
import { it } from 'node:test';
import { isDatabaseUnavailable } from './unavailable.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

it('connection-level failures of either dialect are "unavailable"', () => {
  for (const err of [
    withCode('57P01', 'terminating connection due to administrator command'),
    withCode('57P03'),
    withCode('08006'),
    withCode('ECONNREFUSED'),
    withCode('SQLITE_BUSY'),
    withCode('SQLITE_BUSY_SNAPSHOT'),
    new Error('Connection terminated unexpectedly'),
    new Error('timeout exceeded when trying to connect'),
    new Error('Client has encountered a connection error and is not queryable'),
    new Error('wrapped', { cause: withCode('ECONNRESET') }),
  ]) {
    assert.equal(isDatabaseUnavailable(err), true, String(err));
  }
});

it('query errors and our own bugs are not', () => {
  for (const err of [
    withCode('23505'),
    withCode('42P01'),
    withCode('SQLITE_CONSTRAINT_UNIQUE'),
    new TypeError('x is undefined'),
    null,
    'Connection terminated',
  ]) {
    assert.equal(isDatabaseUnavailable(err), false, String(err));
  }
});
