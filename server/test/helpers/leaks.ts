import { after, afterEach, before, beforeEach } from 'node:test';

/**
 * The leak check (STYLE 13, after graphile-worker's): the helpers that start servers, workers and
 * receivers register what they start here and release it when it stops. A test that ends with
 * something it started still running fails, and the leftover is stopped so the next test starts
 * clean. What a suite starts in `before` belongs to the suite: its `after` must stop it.
 *
 * A registry the helpers fill, rather than counting handles (process.getActiveResourcesInfo): pool
 * sockets and timers come and go on their own and would make the check flaky.
 */
interface Running {
  what: string;
  stop: () => Promise<unknown>;
}

const running = new Set<Running>();

/** Registers something started; call the returned function once it has stopped. */
export function trackRunning(what: string, stop: () => Promise<unknown>): () => void {
  const entry = { what, stop };
  running.add(entry);
  return () => {
    running.delete(entry);
  };
}

async function failOnLeftovers(since: ReadonlySet<Running>, where: string): Promise<void> {
  const leftovers = [...running].filter((r) => !since.has(r));
  if (leftovers.length === 0) return;
  for (const r of leftovers) {
    running.delete(r);
    await r.stop().catch(() => {});
  }
  throw new Error(`${where} left running: ${leftovers.map((r) => r.what).join(', ')}`);
}

/**
 * Runs `suite` (a describe() body) with the check installed (describeEachDb does this). The suite's
 * own check is registered after the body's hooks, so it runs after the body's `after` hooks have
 * stopped what its `before` hooks started (node:test runs a suite's hooks in registration order).
 */
export function checkLeaks(suite: () => void): void {
  let atSuiteStart: ReadonlySet<Running> = new Set();
  let atTestStart: ReadonlySet<Running> = new Set();
  before(() => {
    atSuiteStart = new Set(running);
  });
  beforeEach(() => {
    atTestStart = new Set(running);
  });
  afterEach(() => failOnLeftovers(atTestStart, 'the test'));
  suite();
  after(() => failOnLeftovers(atSuiteStart, 'the suite'));
}
