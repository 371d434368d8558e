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
import { dirname, join } from 'node:path';

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

/**
 * Writes (bench/writes): connection i sends `method` to paths[i] again and again, each body the
 * template with `{n}` replaced by a number of its own ("<connection>-<count>", so every write
 * changes the entry). wrk has no per-connection hook, so each connection gets its own thread
 * (-t = -c): setup() numbers the threads, init() picks the path, request() builds the body.
 */
function writesScript(method: string, paths: readonly string[], bodyTemplate: string): string {
  const lua = (value: string) => JSON.stringify(value); // a JSON string literal is a valid Lua one here
  return `
local paths = { ${paths.map(lua).join(', ')} }
local count = 0
function setup(thread)
  count = count + 1
  thread:set("index", count)
end
function init(args)
  path = paths[(index - 1) % #paths + 1]
  written = 0
end
function request()
  written = written + 1
  local body = string.gsub(${lua(bodyTemplate)}, "{n}", index .. "-" .. written)
  return wrk.format(${lua(method)}, path, nil, body)
end
${SCRIPT}`;
}

let scriptFile: string | undefined;
let writeScripts = 0;

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
  /** Writes instead of GETs of `url`'s path: see writesScript (one thread per connection). */
  writes?: { method: string; paths: readonly string[]; bodyTemplate: string };
  /** A request's timeout (wrk's default: 2 s; a server under valgrind can pause longer). */
  timeoutSeconds?: number;
}): Promise<WrkResult> {
  if (!scriptFile) {
    scriptFile = join(mkdtempSync(join(tmpdir(), 'folio-wrk-')), 'report.lua');
    writeFileSync(scriptFile, SCRIPT);
  }
  let script = scriptFile;
  let threads = 1;
  if (options.writes) {
    const { method, paths, bodyTemplate } = options.writes;
    script = join(dirname(scriptFile), `writes-${++writeScripts}.lua`);
    writeFileSync(script, writesScript(method, paths, bodyTemplate));
    threads = options.connections;
  }
  const args = [`-t${threads}`, `-c${options.connections}`, `-d${options.durationSeconds}s`, '-s', script];
  if (options.timeoutSeconds) args.push('--timeout', `${options.timeoutSeconds}s`);
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
  args.push(options.url);
  return new Promise((resolve, reject) => {
    // On the load generator's CPU (the caller pinned itself; children inherit it): one thread, or one
    // per connection for writes.
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
