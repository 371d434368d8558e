import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Kysely, PostgresDialect } from 'kysely';
import type { Database } from '../../db/database.js';
import { CamelCaseAtCompile, mappingIdentifiers } from '../../db/snake-case.js';
import { sessionAllows } from './session-check.js';

// Compiled only: the pool is never asked for a connection.
const plugin = new CamelCaseAtCompile();
const db = new Kysely<Database>({
  dialect: mappingIdentifiers(new PostgresDialect({ pool: {} as never }), plugin),
  plugins: [plugin],
});
const check = (roles: ('admin' | 'editor')[]) => ({ tokenHash: 'h', projectId: 'prj_1', roles });

describe('sessionAllows', () => {
  it("compares the session's role with the allowed ones", () => {
    const { sql, parameters } = sessionAllows(db, check(['editor', 'admin']), 'now').compile(db);
    assert.match(sql, /^\(\(select "memberships"\."role" from "sessions" .*\)\) in \(\$4, \$5\)$/);
    assert.deepEqual(parameters.slice(-2), ['editor', 'admin']);
  });

  it('is false, not invalid SQL, when no role may (verifySessionCheck refuses those too)', () => {
    assert.equal(sessionAllows(db, check([]), 'now').compile(db).sql, 'false');
  });
});
