import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How often the young generation is looked at: once per interval, a read of V8's counters. */
const CHECK_MS = 10_000;
/**
 * Allocated in an interval below this (500 KB/s), the process is idle: half the rate under which V8
 * itself shrinks the young generation in a collection (1,000 bytes/ms). An idle Folio allocates about
 * 250 KB/s (its worker's polls, the metrics' sampling).
 */
const QUIET_BYTES = 5 * 1024 * 1024;
/** A young generation bigger than this was grown by load: V8 starts it at 1 MiB per semi-space. */
const GROWN_BYTES = 4 * 1024 * 1024;

/**
 * What V8 multiplies the young generation by when it grows it (its default is 2). 16 takes it from
 * its small sizes (where it starts, and where an idle process gives it back) to its largest in one
 * growth: a growth stops at the largest size.
 */
const GROWTH_FACTOR = 16;

type Collect = (options: { type: 'minor' | 'major' }) => void;
let collect: Collect | undefined;

/**
 * Gives back the young generation a burst of requests grew, once the process has been idle.
 *
 * Why: V8 grows the young generation under load (up to 16 MiB per semi-space) and shrinks it only in
 * a collection that runs while little is being allocated. A process idle after a burst may allocate
 * so little that no collection comes for a minute or more, and keeps 30 MB it no longer uses: an idle
 * Folio on SQLite fills a grown young generation in about a minute, so whether it still held it 60 s
 * after a burst depended on how full it was when the burst ended (4 of 9 processes did in round 9 of
 * bench/results/speed-notes.md). So, every CHECK_MS: when the young generation is grown and less
 * than QUIET_BYTES were allocated in it since the last look (no collection in between), one
 * scavenge, which V8 then follows by shrinking it. A scavenge of an idle heap takes a millisecond or two.
 *
 * How: V8 offers a collection only through `--expose-gc`; set at run time, it installs `gc` in the
 * contexts made afterwards, so one is taken from a new vm context and the process's own global is
 * left as it was.
 */
export function trimYoungGenerationWhenIdle(checkMs = CHECK_MS): () => void {
  let lastUsed = -1;
  const timer = setInterval(() => {
    const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    if (!young) return;
    const used = young.space_used_size;
    // Used only grows between collections: a smaller figure means one ran, so the interval is not read.
    const quiet = lastUsed >= 0 && used >= lastUsed && used - lastUsed < QUIET_BYTES;
    lastUsed = used;
    if (!quiet || young.space_size <= GROWN_BYTES) return;
    collector()({ type: 'minor' });
    lastUsed = -1;
  }, checkMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Lets the young generation grow back to its working size in one step when load comes back.
 *
 * Why: V8 grows the young generation only by doubling, and only once more bytes have survived its
 * scavenges since the last growth than it holds, so from 1 MiB a busy Folio took four growths and about
 * three seconds of load to reach its working size, scavenging several times as often meanwhile. That
 * happens after every idle spell: trimYoungGenerationWhenIdle gives the young generation back, and
 * so does V8's own memory reducer (here between 12 and 25 s into one). Counted with --trace-gc (one
 * process, 1 s turns of snapshot 304s after 25 s idle): 191, 125 and 73 scavenges in the first three
 * turns against about 40 in a steady turn; with this 69, then 39 (bench/results/speed-notes.md, round
 * 13). The largest size is V8's as before; only the way there is shorter.
 *
 * How: a V8 flag read each time it grows the space, so setting it at run time takes effect. A
 * factor given on node's command line is left as it is.
 */
export function growYoungGenerationAtOnce(): void {
  if (process.execArgv.some((arg) => /^--semi[-_]space[-_]growth[-_]factor/.test(arg))) return;
  setFlagsFromString(`--semi-space-growth-factor=${GROWTH_FACTOR}`);
}

/**
 * Every V8 flag a Folio process sets at run time, set together before any other of its code runs.
 *
 * Why together and first: V8 accepts a code cache only under the flags it was made with, and the
 * process loader (src/start/run-bundle.ts) compiles the bundle before the bundle's own code could set
 * one; it calls this first, and so does process-setup.ts (again, to the same values, for every other
 * way the code runs). `--expose-gc`, which the idle trim needs, is set here rather than on first use
 * so that the flags are the same whenever the cache is written.
 */
export function setProcessFlags(): void {
  growYoungGenerationAtOnce();
  setFlagsFromString('--expose-gc');
}

function collector(): Collect {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as Collect;
  }
  return collect;
}
