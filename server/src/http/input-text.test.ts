import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inputProblem, isBadText, MAX_DEPTH } from './input-text.js';

describe('inputProblem', () => {
  it('names the path of a bad string inside arrays and objects', () => {
    const body = {
      objects: [
        { type: 'card', fields: { title: 'fine' } },
        { type: 'card', collections: { links: [{ value: 'ok' }, { value: { href: '/a\u0000' } }] } },
      ],
    };
    assert.deepEqual(inputProblem(body, 'body'), {
      path: 'body.objects[1].collections.links[1].value.href',
      message: 'must not contain a NUL character or an unpaired surrogate',
    });
    assert.equal(inputProblem({ list: ['a', ['b', 'x\ud800']] }, 'body')?.path, 'body.list[1][1]');
    assert.equal(inputProblem({ a: { 'k\udc00': 1 } }, 'body')?.path, 'body.a.k\udc00');
    assert.match(inputProblem({ a: { 'k\udc00': 1 } }, 'body')?.message ?? '', /^property names/);
  });

  it('passes clean values of every kind, paired surrogates included', () => {
    const body = {
      n: 1,
      b: true,
      z: null,
      s: 'emoji \ud83d\ude00',
      list: [1, 'two', [3], { four: 4 }],
      e: {},
    };
    assert.equal(inputProblem(body, 'body'), null);
    assert.equal(inputProblem('plain', 'body'), null);
  });

  it(`stops at ${MAX_DEPTH} levels, the path leading to the level it refused`, () => {
    let value: unknown = 'leaf';
    for (let i = 0; i < MAX_DEPTH; i++) value = [value];
    assert.equal(inputProblem(value, 'body'), null, 'a string at the deepest level is fine');
    const problem = inputProblem({ a: [value] }, 'body');
    assert.match(problem?.message ?? '', /nest deeper than 64/);
    assert.equal(problem?.path, `body.a${'[0]'.repeat(MAX_DEPTH - 1)}`);
  });

  it('isBadText: NUL and lone surrogates of either half, anywhere in the string', () => {
    for (const bad of ['\u0000', 'a\u0000b', '\ud800', 'a\ud800', '\udc00b', 'x\udc00\ud800y'])
      assert.ok(isBadText(bad), bad);
    for (const good of ['', 'plain', 'é ü ß', '\ud83d\ude00', 'a\ud83d\ude00b'])
      assert.ok(!isBadText(good), good);
  });
});
