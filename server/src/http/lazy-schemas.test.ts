import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLazySchemas } from './lazy-schemas.js';

describe('lazy schemas', () => {
  it('compiles a validator on its first call, once, and keeps its errors', () => {
    const lazy = createLazySchemas();
    let compiled = 0;
    const validate = lazy.validator('GET /x querystring', () => {
      compiled++;
      const fn = (data: unknown) => {
        fn.errors = data === 1 ? null : [{ message: 'must be 1' }];
        return data === 1;
      };
      fn.errors = null as unknown;
      return fn;
    });
    assert.equal(compiled, 0, 'nothing compiled before the first request');
    assert.ok(validate.schemaEnv, 'Fastify passes the parent context, as to an Ajv function');
    assert.equal(validate(2), false);
    assert.deepEqual(validate.errors, [{ message: 'must be 1' }]);
    assert.equal(validate(1), true);
    assert.equal(validate.errors, null);
    assert.equal(compiled, 1);
  });

  it('compiles a serialiser on its first call, once', () => {
    const lazy = createLazySchemas();
    let compiled = 0;
    const serialize = lazy.serializer('GET /x 200', () => {
      compiled++;
      return (data: unknown) => JSON.stringify(data);
    });
    assert.equal(compiled, 0);
    assert.equal(serialize({ a: 1 }), '{"a":1}');
    assert.equal(serialize([2]), '[2]');
    assert.equal(compiled, 1);
  });

  it('compileAll compiles what is left and names the route of a schema that does not compile', () => {
    const lazy = createLazySchemas();
    let compiled = 0;
    lazy.serializer('GET /ok 200', () => {
      compiled++;
      return () => '';
    });
    lazy.validator('POST /broken body', () => {
      throw new Error('unknown keyword');
    });
    assert.throws(() => lazy.compileAll(), /POST \/broken body: unknown keyword/);
    assert.equal(compiled, 1);
  });
});
