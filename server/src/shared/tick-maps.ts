import { createHook } from 'node:async_hooks';

/** The tick object held for the life of the process (see pinTickObjectMaps). */
let pinned: object | undefined;

/**
 * Keeps one of node's `process.nextTick` entries alive for the life of the process, so that every
 * tick stays cheap.
 *
 * Why: node builds each tick entry as an object literal with two computed symbol keys
 * (`{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, callback, args }`, in
 * lib/internal/process/task_queues.js). V8 adds such keys as map transitions that it holds weakly,
 * and remembers them at the literal's sites as weak feedback. When a full garbage collection runs
 * while no tick object is alive (an idle server's memory reducer does exactly that), those maps are
 * freed; the next tick makes new ones, the sites' feedback turns megamorphic, and from then on the
 * optimized `nextTick` defines both keys through V8's runtime, for the rest of the process's life.
 * Measured alone, a tick then costs 300 ns instead of 50; a 304 from Folio answered 20–24 µs of CPU
 * instead of 16–18 (bench/results/speed-notes.md, round 8; bench/speed/tick-maps.mjs shows it alone).
 * Every response calls nextTick several times. One live tick object keeps its map, and through it the whole chain of transitions, alive.
 *
 * The only way to reach a tick object is the async_hooks `init` callback, which is given it as the
 * resource; the hook is enabled for one nextTick and disabled at once, so no hook stays installed.
 */
export function pinTickObjectMaps(): void {
  if (pinned) return;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') pinned ??= resource;
    },
  });
  hook.enable();
  process.nextTick(() => {});
  hook.disable();
}

/** The tick object pinTickObjectMaps holds, if it has run (for its test). */
export function pinnedTickObject(): object | undefined {
  return pinned;
}
