/**
 * The CPU one request may spend on rule checks (contract §23: `CMS_RULES_BUDGET_MS`, default 200).
 * One object per request or operation (a sync, an editor read, a publish), handed down the walk of
 * its checks: two requests never share one, so a slow request cannot eat another's budget. Only the
 * costly steps draw on it (compiling a pattern, matching a value); every other rule is linear in
 * the value and bounded by the entry's size, so a check without patterns never touches it.
 *
 * A match or a compile is one synchronous call that cannot be interrupted, so the budget is asked
 * before each with an estimate of its cost (pattern-engine.ts: an upper bound) and refuses it when
 * that exceeds what is left; the time the call then really took is what is charged. The clock is
 * `performance.now()` around the call: a synchronous call holds the event loop, so the time it takes
 * is this request's CPU (plus any time the OS gave the core to another process, which only makes the
 * budget stricter). A call estimated under CLOCKLESS_NS is charged its estimate without reading the
 * clock, so a page of short values pays no clock reads.
 */
export const DEFAULT_RULES_BUDGET_MS = 200;

/** Calls estimated below this are charged their estimate (an upper bound) instead of being timed. */
const CLOCKLESS_NS = 50_000;

export class RuleBudget {
  private leftNs: number;
  /** Costly steps refused because their estimate did not fit what was left. */
  refusals = 0;

  constructor(readonly ms: number = DEFAULT_RULES_BUDGET_MS) {
    this.leftNs = ms * 1e6;
  }

  /** Whether anything was refused: a check that needed more than the budget had. */
  get ranOut(): boolean {
    return this.refusals > 0;
  }

  /** Whether nothing was drawn yet (a check made now has the whole budget). */
  get untouched(): boolean {
    return this.refusals === 0 && this.leftNs === this.ms * 1e6;
  }

  /** Milliseconds drawn so far. */
  get spentMs(): number {
    return this.ms - this.leftNs / 1e6;
  }

  /**
   * `work()` when its estimated cost fits what is left (charging the time it took), else undefined:
   * refused, and counted as such.
   */
  run<T>(estimateNs: number, work: () => T): T | undefined {
    if (estimateNs > this.leftNs) {
      this.refusals += 1;
      return undefined;
    }
    if (estimateNs < CLOCKLESS_NS) {
      this.leftNs -= estimateNs;
      return work();
    }
    const started = performance.now();
    try {
      return work();
    } finally {
      this.leftNs -= (performance.now() - started) * 1e6;
    }
  }
}

/** A budget without a bound: for unit tests and callers that check one known value. */
export const unbounded = (): RuleBudget => new RuleBudget(Number.POSITIVE_INFINITY);
