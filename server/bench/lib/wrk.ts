/**
 * wrk (https://github.com/wg/wrk, Debian's package `wrk`) as a load generator, for benches whose
 * servers answer faster than autocannon can ask.
 *
 * Why not autocannon here: it is a Node program, so on its one core it tops out near the rate a bare
 * node:http server answers. bench/speed measured bare node:http at 15k req/s with autocannon and
 * 43k with wrk on the same core: with autocannon every baseline ratio was a ratio of the client's
 * ceiling, not of the servers. wrk is what issue 13's own table was measured with.
 *
 * The figures come from a Lua `done` hook that prints one JSON line (wrk's text summary rounds).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface WrkResult {
  requests: number;
  requestsPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** Bytes read per request: tells a 304 (headers only) from a 200 with its body. */
  bytesPerRequest: number;
  /** Non-2xx/3xx answers, plus connect, read, write errors and timeouts. */
  errors: number;
}

const SCRIPT = `
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_JSON {"requests":%d,"durationUs":%d,"bytes":%d,"errors":%d,"p50Us":%d,"p99Us":%d}\\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
`;

let scriptFile: string | undefined;

/** Throws with the install command when wrk is missing: the bench never falls back silently. */
export function requireWrk(): void {
  if (spawnSync('wrk', ['--version']).error)
    throw new Error('wrk is not installed: apt-get install -y wrk (bench/lib/wrk.ts says why it is used)');
}

export function wrk(options: {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  durationSeconds: number;
}): Promise<WrkResult> {
  if (!scriptFile) {
    scriptFile = join(mkdtempSync(join(tmpdir(), 'folio-wrk-')), 'report.lua');
    writeFileSync(scriptFile, SCRIPT);
  }
  const args = ['-t1', `-c${options.connections}`, `-d${options.durationSeconds}s`, '-s', scriptFile];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
  args.push(options.url);
  return new Promise((resolve, reject) => {
    // One thread, on the load generator's CPU (the caller pinned itself; children inherit it).
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = /WRK_JSON (.*)/.exec(out)?.[1];
      if (code !== 0 || !line) return reject(new Error(`wrk exited with ${code}: ${out}`));
      const r = JSON.parse(line) as {
        requests: number;
        durationUs: number;
        bytes: number;
        errors: number;
        p50Us: number;
        p99Us: number;
      };
      resolve({
        requests: r.requests,
        requestsPerSec: Math.round(r.requests / (r.durationUs / 1e6)),
        latencyP50Ms: Math.round(r.p50Us / 10) / 100,
        latencyP99Ms: Math.round(r.p99Us / 10) / 100,
        bytesPerRequest: Math.round(r.bytes / Math.max(1, r.requests)),
        errors: r.errors,
      });
    });
  });
}
