import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startServerProcess } from '../helpers/process.js';

/** How many times the process's main thread has gone to sleep and been woken (Linux's count). */
function mainThreadSwitches(pid: number): number {
  const status = readFileSync(`/proc/${pid}/task/${pid}/status`, 'utf8');
  const count = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1]);
  return count('voluntary_ctxt_switches') + count('nonvoluntary_ctxt_switches');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// An idle instance should stay asleep: on a shared core every wake-up preempts whatever is serving
// there (the bench's other servers, or another instance), and costs CPU for nothing. prom-client's
// event-loop lag sampling woke the process 100 times a second at its default (metrics.ts,
// EVENT_LOOP_SAMPLE_MS); what is left is that sampling at 10/s, the access log's flush and the
// in-process worker's polls, about 12 a second.
describe('an idle server process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-idle-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('wakes its main thread fewer than 40 times a second', async () => {
    const server = await startServerProcess({ CMS_DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    try {
      const pid = server.child.pid as number;
      await (await fetch(`${server.url}/health`)).arrayBuffer();
      await sleep(1000); // start-up's own work settles
      const before = mainThreadSwitches(pid);
      const seconds = 3;
      await sleep(seconds * 1000);
      const perSecond = (mainThreadSwitches(pid) - before) / seconds;
      assert.ok(perSecond < 40, `${perSecond} wake-ups a second`);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});
