import { AsyncResource } from 'node:async_hooks';

/** The object held for the life of the process (see pinTickObjectMaps). */
let pinned: object | undefined;

/**
 * Keeps the maps (V8's hidden classes) of node's `process.nextTick` entries alive for the life of
 * the process, so that every tick stays cheap.
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
 * Every response calls nextTick several times.
 *
 * How: an object built by a literal of the same shape, with the same two symbols, gets the same map,
 * so holding one keeps that chain of transitions alive (its test checks it against node's own tick
 * objects). The symbols are read off an AsyncResource, which carries both as own keys. Why not hold a
 * real tick object, taken from an async_hooks `init` hook: enabling a hook, even once, installs V8's
 * promise hooks, and every `await` in the process stayed 30% slower after they were removed.
 */
export function pinTickObjectMaps(): void {
  if (pinned) return;
  const resource = new AsyncResource('FolioTickMaps') as unknown as Record<symbol, unknown>;
  const keys = Object.getOwnPropertySymbols(resource);
  const asyncId = keys.find((key) => key.description === 'async_id_symbol');
  const triggerAsyncId = keys.find((key) => key.description === 'trigger_async_id_symbol');
  // A node without these keys builds its ticks another way: nothing to keep.
  if (!asyncId || !triggerAsyncId) return;
  pinned = {
    [asyncId]: resource[asyncId],
    [triggerAsyncId]: resource[triggerAsyncId],
    callback: () => {},
    args: undefined,
  };
}

/** The object pinTickObjectMaps holds, if it has run (for its test). */
export function pinnedTickObject(): object | undefined {
  return pinned;
}
