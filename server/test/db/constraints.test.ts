import assert from 'node:assert/strict';
import { it } from 'node:test';
import { constraintViolation, fromConstraint } from '../../src/db/dialect/constraints.js';
import { insertProject } from '../../src/modules/projects/projects.repository.js';
import { insertAccount, insertMembership } from '../../src/modules/users/users.repository.js';
import { AppError } from '../../src/shared/errors.js';
import { describeEachDb } from '../helpers/app.js';

/** Real violations from each dialect's driver, so the codes the mapping reads are the ones they raise. */
describeEachDb('constraint violations', (ctx) => {
  const now = new Date().toISOString();
  const rejection = async (write: () => Promise<unknown>): Promise<unknown> => {
    try {
      await write();
    } catch (err) {
      return err;
    }
    throw new Error('the write was expected to fail');
  };

  it('a duplicate unique value is a 409 conflict, with the message the service names', async () => {
    const account = { id: 'usr_dup1', email: 'dup@example.com', name: '', passwordHash: 'x', now };
    await insertAccount(ctx.db, account);
    const err = await rejection(() => insertAccount(ctx.db, { ...account, id: 'usr_dup2' }));
    assert.equal(constraintViolation(err), 'unique');
    const mapped = fromConstraint(err, { unique: 'dup@example.com is taken.' });
    assert.ok(mapped instanceof AppError);
    assert.equal(mapped.statusCode, 409);
    assert.equal(mapped.code, 'conflict');
    assert.equal(mapped.message, 'dup@example.com is taken.');
  });

  it('a duplicate primary key is a 409 conflict too', async () => {
    await insertProject(ctx.db, { id: 'prj_pk', name: 'a', apiKey: 'cms_pk_a', now });
    const err = await rejection(() =>
      insertProject(ctx.db, { id: 'prj_pk', name: 'b', apiKey: 'cms_pk_b', now }),
    );
    assert.equal((fromConstraint(err) as AppError).statusCode, 409);
  });

  it('a row referring to a missing parent is a 404 not_found', async () => {
    await insertAccount(ctx.db, { id: 'usr_fk', email: 'fk@example.com', name: '', passwordHash: 'x', now });
    const err = await rejection(() =>
      insertMembership(ctx.db, { projectId: 'prj_gone', accountId: 'usr_fk', role: 'admin', now }),
    );
    assert.equal(constraintViolation(err), 'foreignKey');
    const mapped = fromConstraint(err);
    assert.ok(mapped instanceof AppError);
    assert.equal(mapped.statusCode, 404);
    assert.equal(mapped.code, 'not_found');
  });

  it('other errors pass through unchanged', () => {
    const err = new Error('boom');
    assert.equal(constraintViolation(err), null);
    assert.equal(fromConstraint(err), err);
    assert.equal(fromConstraint(null), null);
  });
});
