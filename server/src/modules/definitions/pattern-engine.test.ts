import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RE2JS } from 're2js';
import {
  compilePattern,
  MAX_PATTERN_PROGRAM,
  matchesPattern,
  PatternTooLarge,
  patternCalls,
  programBound,
} from './pattern-engine.js';
import { RuleBudget } from './rule-budget.js';

const COSTLY = '(?:\\p{L}|\\p{N}|\\p{P}).*a(?:\\p{L}|\\p{N}){999}!';

describe('pattern engine', () => {
  it("bounds a source's program from its text, never below what RE2JS compiles", () => {
    const sources = [
      '[a-z0-9-]+',
      COSTLY,
      `(?:${'a?'.repeat(95)}){1000}`,
      '\\pL{1000}\\pN{1000}\\pP{1000}',
      '.{0,1000}',
      'a|😀+',
      '(?i)abc',
      '(?P<x>a{3,5}){2,}',
      '\\Qa{1000}\\E',
      '[[:alpha:]\\]]{10,20}',
      '(?:(?:a{10}){10}){10}',
      '(a|bc|def)*?',
      '\\x{41}{1000}',
      '(?:(?:a?){10}b{10}){50}',
    ];
    for (const source of sources) {
      const size = RE2JS.compile(`^(?:${source})$`).programSize();
      assert.ok(programBound(source) >= size, `${source}: ${programBound(source)} < ${size}`);
    }
  });

  it('refuses a program over the bound, the largest kind without compiling it', () => {
    const compiles = patternCalls.compiles;
    assert.throws(() => compilePattern(`(?:${'a?'.repeat(95)}){1000}`), PatternTooLarge);
    assert.equal(patternCalls.compiles, compiles, 'bounded from its text: not compiled');
    assert.throws(() => compilePattern('(?:a?a?a?a?a?a?){1000}'), /12004 instructions; at most 10000/);
    assert.ok((compilePattern(COSTLY)?.programSize() ?? 0) <= MAX_PATTERN_PROGRAM);
  });

  it('a value over 10,000 code points never matches, and runs nothing', () => {
    const matches = patternCalls.matches;
    assert.equal(matchesPattern('a*', 'a'.repeat(10_001)), false);
    assert.equal(matchesPattern('[a😀]*', `${'a'.repeat(9_999)}😀😀`), false);
    assert.equal(patternCalls.matches, matches);
    assert.equal(
      matchesPattern('[a😀]*', `${'a'.repeat(9_999)}😀`),
      true,
      '10,000 code points, 10,001 units',
    );
  });

  it('a match whose estimate exceeds what is left of the budget is refused, not run', () => {
    const budget = new RuleBudget(200);
    const matches = patternCalls.matches;
    assert.equal(matchesPattern(COSTLY, 'a'.repeat(9_000), budget), undefined);
    assert.equal(patternCalls.matches, matches);
    assert.ok(budget.ranOut);
    // A cheap one still runs on what is left; a spent budget refuses even that.
    assert.equal(matchesPattern('[a-z]+', 'b'.repeat(300), budget), true);
    // What a call really took is charged: 2 ms against a budget of 1.
    const spent = new RuleBudget(1);
    spent.run(60_000, () => {
      const until = performance.now() + 2;
      while (performance.now() < until);
    });
    assert.equal(
      spent.run(1_000, () => true),
      undefined,
    );
  });
});
