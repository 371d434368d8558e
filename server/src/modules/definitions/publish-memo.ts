import { checkPublish, type Declarations, type ValueReport } from './field-values.js';
import type { RuleBudget } from './rule-budget.js';

/**
 * The `problems` of a stored copy are computed when it or its definition changes, not per read
 * (contract §17, §23). checkPublish is a pure function of the declarations and the copy, so its
 * report is remembered keyed by exactly those: the parsed declarations (one object per definition
 * JSON, field-values.ts' declarationsOf) and the copy's stored JSON text. An editor's second read of
 * unchanged content does no rule work at all (not even JSON.parse); a change to the copy or to the
 * definition is a new key. What the report does not cover stays a query per read: whether linked
 * pages and referenced entries exist (publish-rules.ts in content).
 *
 * Rejected: a `problems` column written on every change. It would need a migration and rewriting
 * every entry of a definition at each sync (or of a project when its pages or locales change), for
 * what a bounded memo gives the reads that matter, the repeated ones.
 *
 * Bounded in bytes, keys included (a copy is up to 1 MB of JSON): MEMO_BYTES counts two bytes per
 * character of each remembered copy plus its report, and everything is forgotten at once past it
 * (as the other memos of this module do). Keyed by declarations in a WeakMap, so a definition that
 * is no longer read takes its reports with it.
 */
const MEMO_BYTES = 16 * 1024 * 1024;
let memo = new WeakMap<Declarations, Map<string, ValueReport>>();
let memoBytes = 0;

/** Reports remembered and computed (tests read them to prove a second read does no rule work). */
export const publishMemoStats = { hits: 0, misses: 0 };

const reportBytes = (r: ValueReport): number =>
  r.problems.reduce((n, p) => n + 2 * (p.path.length + p.message.length) + 64, 64) +
  r.links.reduce((n, l) => n + 2 * (l.path.length + l.pageId.length) + 64, 0) +
  r.references.reduce((n, x) => n + 2 * (x.path.length + x.id.length) + 64, 0);

/**
 * checkPublish's report of `fields` (a stored copy's JSON text) under `declared`, remembered. A
 * report the budget cut short because this request had already spent part of it on other entries
 * is not remembered: on its own, next time, it may be judged in full. One cut short with the whole
 * budget is remembered: it would be cut the same way again, and not doing that work on every read
 * is the point. The report is shared: callers must not change it.
 */
export function publishReport(declared: Declarations, fields: string, budget: RuleBudget): ValueReport {
  let byCopy = memo.get(declared);
  const known = byCopy?.get(fields);
  if (known) {
    publishMemoStats.hits += 1;
    return known;
  }
  publishMemoStats.misses += 1;
  const whole = budget.untouched;
  const refusals = budget.refusals;
  const report = checkPublish(declared, JSON.parse(fields) as Record<string, unknown>, budget);
  if (budget.refusals > refusals && !whole) return report;
  const bytes = 2 * fields.length + reportBytes(report);
  if (bytes > MEMO_BYTES) return report;
  if (memoBytes + bytes > MEMO_BYTES) {
    memo = new WeakMap();
    memoBytes = 0;
    byCopy = undefined;
  }
  if (!byCopy) {
    byCopy = new Map();
    memo.set(declared, byCopy);
  }
  byCopy.set(fields, report);
  memoBytes += bytes;
  return report;
}
