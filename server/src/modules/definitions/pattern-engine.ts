import { RE2JS } from 're2js';
import type { RuleBudget } from './rule-budget.js';

/**
 * `pattern` rules on RE2JS (contract §13, §17, §23). RE2 runs in time linear in the value, but
 * linear with a factor: the program's size. RE2 expands a counted repeat into copies, so 200
 * characters of source can ask for 190,000 instructions (`(?:a?a?…){1000}`: 0.2-0.5 s to compile,
 * ~50 MB), and a program of 1,000 that defeats the DFA (`.*a(?:\pL|\pN){999}!`) costs ~30 ns per
 * instruction and character on the NFA: 60,000 characters took 3.4 s. Three bounds, each measured
 * on the reference machine (Node 20, 2 cores):
 * - a program over MAX_PATTERN_PROGRAM instructions is refused at sync (see there);
 * - a value over MAX_PATTERN_VALUE code points never matches, without running the engine;
 * - each compile and match first asks the request's RuleBudget with an upper-bound estimate.
 */

/**
 * The largest program a pattern may compile to, in RE2JS instructions. RE2's default `max_mem`
 * (8 MB) gives its forward program 2/3 of it and wants room left for 20 DFA states: for RE2JS's
 * one-instruction-per-rune programs that is ~50,000 instructions, a size whose compile alone takes
 * ~60 ms and ~20 MB, and whose single NFA match on a 1,000-character value takes ~1.5 s. 10,000
 * keeps compiles under ~15 ms and ~4 MB each, is ten times what any real pattern needs (`.{0,1000}`
 * is 2,002; `\pL{1000}\pN{1000}\pP{1000}` 3,004), and still accepts the probe's 1,008-instruction
 * pattern, whose cost the budget bounds instead.
 */
export const MAX_PATTERN_PROGRAM = 10_000;
/** Values longer than this (code points) never match a pattern (contract §23): no engine work. */
export const MAX_PATTERN_VALUE = 10_000;
/**
 * A source whose text alone bounds its program above this is refused without compiling: the bound
 * over-counts (an alternation of single characters compiles to one class), so compiling up to four
 * times the limit keeps such patterns, and what is compiled costs at most ~50 ms.
 */
const COMPILE_LIMIT = 4 * MAX_PATTERN_PROGRAM;

/** Worst measured NFA cost, ns per instruction and UTF-16 unit (43 on a cold-ish run), with margin. */
const MATCH_NS_PER_STEP = 50;
/** Compile cost, ns per instruction of programBound (1.2-2 µs measured), with margin. */
const COMPILE_NS_PER_INST = 2_500;

/** Engine calls made (tests prove a read of unchanged content runs no pattern). */
export const patternCalls = { compiles: 0, matches: 0 };

/**
 * An upper bound of the instructions `source` compiles to, read from its text (linear, no compile):
 * each atom (a character, an escape, a class) is one instruction, a group adds two (captures), an
 * alternation one per branch, `*` `+` `?` one, and `{n,m}` repeats its operand (plus one) max(n, m)
 * times (n + 1 when open), counts capped at RE2's 1,000 so that a bad count reaches the engine's
 * own message.
 */
export function programBound(source: string): number {
  let i = 0;
  const s = source;
  const repeat = /\{(\d+)(,(\d*))?\}/y;

  function skipTo(close: string): void {
    const end = s.indexOf(close, i);
    i = end < 0 ? s.length : end + close.length;
  }

  function escaped(): number {
    i += 1; // the backslash
    const c = s[i];
    i += 1;
    if (c === 'Q') {
      const end = s.indexOf('\\E', i);
      const quoted = (end < 0 ? s.length : end) - i;
      i = end < 0 ? s.length : end + 2;
      return Math.max(quoted, 1);
    }
    if ((c === 'p' || c === 'P' || c === 'x') && s[i] === '{') skipTo('}');
    else if (c === 'p' || c === 'P') i += 1;
    return 1;
  }

  function charClass(): number {
    i += 1; // [
    if (s[i] === '^') i += 1;
    if (s[i] === ']') i += 1;
    while (i < s.length && s[i] !== ']') {
      if (s[i] === '\\') escaped();
      else if (s[i] === '[' && s[i + 1] === ':') skipTo(':]');
      else i += 1;
    }
    i += 1; // ]
    return 1;
  }

  function group(): number {
    i += 1; // (
    if (s[i] === '?') {
      // (?flags) alone changes flags and compiles to nothing.
      const flags = /\?[a-zA-Z-]*\)/y;
      flags.lastIndex = i;
      if (flags.test(s)) {
        i = flags.lastIndex;
        return 0;
      }
      const named = /\?P?<[A-Za-z0-9_]*>|\?[a-zA-Z-]*:|\?<?[=!]/y;
      named.lastIndex = i;
      if (named.test(s)) i = named.lastIndex;
    }
    const body = alternation();
    if (s[i] === ')') i += 1;
    return body + 2;
  }

  function literal(): number {
    i += 1;
    return 1;
  }

  function alternation(): number {
    let total = 1;
    let last = 0;
    while (i < s.length && s[i] !== ')') {
      const c = s[i];
      if (c === '|') {
        i += 1;
        total += 1;
        last = 0;
        continue;
      }
      if (c === '*' || c === '+' || c === '?') {
        i += 1;
        if (s[i] === '?') i += 1; // lazy
        total += 1;
        last += 1;
        continue;
      }
      repeat.lastIndex = i;
      const counted = c === '{' ? repeat.exec(s) : null;
      if (counted) {
        i = repeat.lastIndex;
        if (s[i] === '?') i += 1;
        const n = Number(counted[1]);
        const max = counted[2] === undefined ? n : counted[3] === '' ? n + 1 : Number(counted[3]);
        const times = Math.min(Math.max(n, max, 1), 1000);
        const grown = (last + 1) * times + 1;
        total += grown - last;
        last = grown;
        continue;
      }
      last = c === '(' ? group() : c === '[' ? charClass() : c === '\\' ? escaped() : literal();
      total += last;
    }
    return total;
  }

  let total = 8; // ^(?: … )$, the match and the fail instructions
  while (i < s.length) {
    total += alternation();
    if (s[i] === ')') i += 1; // unbalanced: the engine says so
  }
  return total;
}

/** The message of a program over the bound (`size`: its instructions, or the text's bound). */
function programTooLarge(size: number): string {
  return `compiles to a program of ${size > COMPILE_LIMIT ? `more than ${COMPILE_LIMIT}` : size} instructions; at most ${MAX_PATTERN_PROGRAM} are allowed (a counted repeat {n} copies what it repeats n times: repeat a character class, not a group of alternatives)`;
}

/** Compiled patterns, bounded by count and by their instructions together, then forgotten at once. */
const compiled = new Map<string, RE2JS>();
let compiledInstructions = 0;
const COMPILED_ENTRIES = 1000;
const COMPILED_INSTRUCTIONS = 100_000;

/** Thrown by compilePattern for a program over MAX_PATTERN_PROGRAM (the message says why). */
export class PatternTooLarge extends Error {}

/**
 * `pattern.source` as §17 runs it: the whole value, no flags, on RE2. Throws the engine's syntax
 * error, or PatternTooLarge. `budget`: asked before compiling a source not compiled yet (undefined:
 * refused, nothing compiled).
 */
export function compilePattern(source: string, budget?: RuleBudget): RE2JS | undefined {
  const known = compiled.get(source);
  if (known) return known;
  const bound = programBound(source);
  if (bound > COMPILE_LIMIT) throw new PatternTooLarge(programTooLarge(bound));
  const compile = () => {
    patternCalls.compiles += 1;
    // Alone first: a source such as `a)|(b` compiles once wrapped, with another meaning.
    RE2JS.compile(source);
    return RE2JS.compile(`^(?:${source})$`);
  };
  const pattern = budget ? budget.run(bound * COMPILE_NS_PER_INST, compile) : compile();
  if (!pattern) return undefined;
  const size = pattern.programSize();
  if (size > MAX_PATTERN_PROGRAM) throw new PatternTooLarge(programTooLarge(size));
  if (compiled.size >= COMPILED_ENTRIES || compiledInstructions + size > COMPILED_INSTRUCTIONS) {
    compiled.clear();
    compiledInstructions = 0;
  }
  compiled.set(source, pattern);
  compiledInstructions += size;
  return pattern;
}

/** Values up to this many UTF-16 units have their pattern results remembered. */
const REMEMBERED_VALUE = 256;
/** Results remembered, all patterns together (at most ~5 MB of keys), then forgotten at once. */
const REMEMBERED_RESULTS = 10_000;
/** Pattern source → value → whether it matches (a Map per source: no separator to confuse). */
const results = new Map<string, Map<string, boolean>>();
let remembered = 0;

/**
 * Whether `value` matches `source` (compilePattern); undefined when the budget refused the work
 * (the caller counts it as not matching, and says why). A value over MAX_PATTERN_VALUE code points
 * never matches and runs nothing. RE2JS is slow even when linear, about a microsecond or two per
 * short value: a publish of 50 list items with a pattern each spent more on it than on everything
 * else its rules check (issue 34, bench/writes), and a publish checks every value again, most
 * unchanged since the last save, so short values' results are remembered.
 */
export function matchesPattern(source: string, value: string, budget?: RuleBudget): boolean | undefined {
  // A UTF-16 unit count over twice the bound is surely over it in code points.
  if (value.length > MAX_PATTERN_VALUE && (value.length > 2 * MAX_PATTERN_VALUE || overLong(value)))
    return false;
  if (value.length > REMEMBERED_VALUE) return run(source, value, budget);
  let bySource = results.get(source);
  const known = bySource?.get(value);
  if (known !== undefined) return known;
  const matched = run(source, value, budget);
  if (matched === undefined) return undefined;
  if (remembered >= REMEMBERED_RESULTS) {
    results.clear();
    remembered = 0;
    bySource = undefined;
  }
  if (!bySource) {
    bySource = new Map();
    results.set(source, bySource);
  }
  bySource.set(value, matched);
  remembered++;
  return matched;
}

function overLong(value: string): boolean {
  let n = 0;
  for (const _ of value) if (++n > MAX_PATTERN_VALUE) return true;
  return false;
}

function run(source: string, value: string, budget: RuleBudget | undefined): boolean | undefined {
  let pattern: RE2JS | undefined;
  try {
    pattern = compilePattern(source, budget);
  } catch (err) {
    // Stored before the bound (a sync refuses it now): as costly as the budget could not afford.
    if (err instanceof PatternTooLarge) return undefined;
    throw err;
  }
  if (!pattern) return undefined;
  const match = () => {
    patternCalls.matches += 1;
    return pattern.matches(value);
  };
  if (!budget) return match();
  return budget.run(pattern.programSize() * Math.max(value.length, 1) * MATCH_NS_PER_STEP, match);
}
