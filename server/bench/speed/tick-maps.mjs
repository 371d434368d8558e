/**
 * `node bench/speed/tick-maps.mjs` (after `npm run build`): what src/shared/tick-maps.ts is for,
 * shown without any of Folio's code. Each case runs in a fresh process: 200k process.nextTick calls,
 * then three full collections from setImmediate (no tick queued, as when an idle server's memory
 * reducer runs), then 200k more; it prints the best of five passes, ns per tick, before and after.
 * Without the pin, the ticks after the collections cost about six times as much (bench/results/
 * speed-notes.md, round 8); with it, the same as before. It also prints what an `await` costs after
 * the pin: a first version held a real tick object, taken from an async_hooks hook enabled for one
 * tick, and that left every await 30% slower.
 */
import { spawnSync } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const TICKS = 200_000;

function batch(n) {
  return new Promise((resolve) => {
    let left = n;
    const done = () => --left === 0 && resolve();
    for (let i = 0; i < n; i++) process.nextTick(done);
  });
}

async function nsPerTick() {
  let best = Number.POSITIVE_INFINITY;
  for (let pass = 0; pass < 5; pass++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < 20; i++) await batch(TICKS / 20);
    best = Math.min(best, Number(process.hrtime.bigint() - started) / TICKS);
  }
  return best.toFixed(0);
}

async function nsPerAwait() {
  const next = async (i) => i + 1;
  let best = Number.POSITIVE_INFINITY;
  for (let pass = 0; pass < 5; pass++) {
    const started = process.hrtime.bigint();
    let x = 0;
    for (let i = 0; i < TICKS * 5; i++) x = await next(x);
    best = Math.min(best, Number(process.hrtime.bigint() - started) / (TICKS * 5));
  }
  return best.toFixed(0);
}

if (process.argv[2] === 'case') {
  if (process.argv[3] === 'pinned') {
    const { pinTickObjectMaps } = await import('../../dist/shared/tick-maps.js');
    pinTickObjectMaps();
  }
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  const before = await nsPerTick();
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  const after = await nsPerTick();
  console.log(
    `${process.argv[3].padEnd(8)} ${before} ns per tick before, ${after} after; ${await nsPerAwait()} ns per await`,
  );
} else {
  for (const which of ['unpinned', 'pinned', 'unpinned', 'pinned']) {
    const run = spawnSync(process.execPath, [new URL(import.meta.url).pathname, 'case', which], {
      encoding: 'utf8',
    });
    process.stdout.write(run.stdout + run.stderr);
  }
}
