import { hostname } from 'node:os';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import pino from 'pino';
import type { Config } from '../config.js';
import { type AccessLine, accessLineFormat } from './access-line.js';
import { newestIdBytes } from './request-id.js';

/**
 * Logging policy. One access line per request, written when the response has gone (method, url,
 * status, time, request id), instead of Fastify's two lines per request, and batched (AccessLog
 * below); and stdout written asynchronously, so a busy server batches its log writes instead of
 * paying one blocking write(2) per line. Measured on the visitor read path: two synchronous lines per
 * request cost 80% of its throughput, which is why this is not Fastify's default. The buffer is
 * flushed when the app closes, and at exit (pino's own exit handler for its destination).
 *
 * stdout is one SonicBoom (pino.destination) in its buffer mode: the access log hands it bytes it has
 * already encoded, and pino's own lines (few: warnings, errors, the worker's) are encoded on the way
 * in (fdSink below). Why not its default string mode: for each batch it measured the string's UTF-8
 * length, encoded it for the write and encoded it again after, and the first of those flattened the
 * batch's thousands of small pieces, by then scattered in memory: 1.4 µs of CPU per access line, where
 * the whole 304 takes about 17 (CPU profile, bench/results/speed-notes.md, round 8; now 0.5 µs).
 */
const REDACT = [
  'req.headers.authorization',
  'req.headers["x-cms-key"]',
  'req.headers.cookie',
  '*.password',
  '*.token',
  '*.secret',
  '*.apiKey',
  '*.key',
];

/** Where log output goes: pino's lines as strings, the access log's batches as bytes. */
export interface LogSink {
  /**
   * `written`, when given, is called once the sink holds `chunk` no longer (its bytes are out), so
   * the caller may fill the same buffer again. A sink that cannot tell never calls it.
   */
  write(chunk: string | Buffer, written?: () => void): unknown;
}

/** A file descriptor (stdout) as a LogSink, written asynchronously: SonicBoom in its buffer mode. */
export function fdSink(fd: number): LogSink & { flushSync(): void } {
  const sonic = pino.destination({ dest: fd, sync: false, contentMode: 'buffer' });
  // In buffer mode SonicBoom takes bytes only (its types know only strings): pino's lines are encoded here.
  const bytes = sonic as unknown as { write(chunk: Buffer): boolean };
  // SonicBoom writes what it is given in order and tells how many bytes each write(2) took, so a
  // chunk is out once the bytes written reach the bytes queued up to its end. Until then SonicBoom
  // may still hold it (without copying it when it is the only chunk waiting).
  let queued = 0;
  let out = 0;
  const waiting: { end: number; written: () => void }[] = [];
  sonic.on('write', (n: number) => {
    out += n;
    for (let next = waiting[0]; next !== undefined && next.end <= out; next = waiting[0]) {
      waiting.shift();
      next.written();
    }
  });
  return {
    write(chunk, written) {
      const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      queued += data.length;
      if (written) waiting.push({ end: queued, written });
      bytes.write(data);
    },
    flushSync: () => sonic.flushSync(),
  };
}

export function loggerOptions(
  config: Config,
  /** Instead of stdout (tests read the log from it). */
  stream?: LogSink,
): {
  logger: FastifyServerOptions['logger'];
  sink: LogSink | null;
  /** Whether `info` lines (the access log) are written at this level. */
  infoEnabled: boolean;
  flush: () => void;
} {
  if (config.logLevel === 'silent') return { logger: false, sink: null, infoEnabled: false, flush: () => {} };
  const stdout = stream ? null : fdSink(1);
  const sink: LogSink = stream ?? stdout!;
  const flush = () => {
    try {
      stdout?.flushSync();
    } catch {
      // Nothing buffered, or stdout already closed: nothing to save.
    }
  };
  return {
    // Fastify logs method and URL only; redaction is the net for anything that logs headers or a body.
    logger: { level: config.logLevel, stream: sink, redact: { paths: REDACT, censor: '[redacted]' } },
    sink,
    infoEnabled: (pino.levels.values[config.logLevel] ?? 0) <= pino.levels.values.info!,
    flush,
  };
}

/** Bytes of lines kept before they are written (about 280 lines of a visitor read), and the longest a line waits. */
export const ACCESS_BATCH_BYTES = 64 * 1024;
export const ACCESS_FLUSH_MS = 1000;
/** Written batches kept for reuse: one being written while the next fills is the usual case. */
const SPARE_BATCHES = 2;

/**
 * The access log: one line per request (method, url, status, time, request id), the same JSON pino
 * writes (level 30, time, pid, hostname, msg "request"), written off the request path (issue 13 #1).
 *
 * Why not `request.log.info()`: measured per line, pino's redaction pass (the REDACT paths above,
 * wildcards included, walked on every call) was half its cost and the write of each line most of
 * the rest; at LOG_LEVEL=info that made a third of the visitor read's throughput. An access line
 * holds only the five fields above, none of them secret, so it is written straight into the batch's
 * buffer as bytes (access-line.ts: no string built for the usual line), and the batch handed to the
 * log sink when ACCESS_BATCH_BYTES are full, or every ACCESS_FLUSH_MS — one asynchronous write for
 * hundreds of requests instead of one each.
 *
 * The trade-offs, stated: an access line can reach the log up to ACCESS_FLUSH_MS after the lines
 * pino writes at once (each line has its own `time`); closing the app and the process's `exit`
 * (process.exit, an uncaught exception, the end of the event loop) write what is kept, so a clean
 * shutdown or a crash that still runs exit handlers loses nothing; a process killed outright
 * (SIGKILL, out of memory) loses at most the last ACCESS_FLUSH_MS or ACCESS_BATCH_BYTES of lines.
 */
export interface AccessLog {
  write(line: AccessLine): void;
  /** Hands every kept line to the sink. */
  flush(): void;
}

export function createAccessLog(
  sink: LogSink,
  base: { pid: number; hostname: string },
  /** Writes what the sink holds, synchronously (at exit no asynchronous write completes). */
  flushSync: () => void = () => {},
): AccessLog & { close(): void } {
  const format = accessLineFormat(base, newestIdBytes);
  // The sink holds a batch until its write completes, so the next one is filled in another buffer:
  // one the sink has given back (LogSink's `written`), else a new one. Why reuse: a new 64 KB buffer
  // every few hundred requests is cold memory for the lines and garbage after. How much it saves is
  // a direction, not a figure: about 2 points of a 304 in the bench's variants, too little for its
  // full runs to resolve (bench/results/speed-notes.md, round 14).
  const spare: Buffer[] = [];
  let batch: Buffer = Buffer.allocUnsafe(ACCESS_BATCH_BYTES);
  let used = 0;
  const flush = () => {
    if (used === 0) return;
    const full = batch;
    const chunk = full.subarray(0, used);
    batch = spare.pop() ?? Buffer.allocUnsafe(ACCESS_BATCH_BYTES);
    used = 0;
    sink.write(chunk, () => {
      if (spare.length < SPARE_BATCHES) spare.push(full);
    });
  };
  const timer = setInterval(flush, ACCESS_FLUSH_MS);
  timer.unref();
  const atExit = () => {
    flush();
    flushSync();
  };
  process.on('exit', atExit);
  return {
    write(line) {
      const now = Date.now();
      const end = format.encode(batch, used, line, now);
      if (end >= 0) {
        used = end;
        return;
      }
      // The rare line: escaped, beyond ASCII, or at the end of the batch (access-line.ts).
      const text = format.text(line, now);
      // At most three UTF-8 bytes per UTF-16 unit: when the line might not fit, the batch goes first.
      if (used + text.length * 3 > batch.length) {
        flush();
        if (text.length * 3 > batch.length) return void sink.write(Buffer.from(text));
      }
      used += batch.write(text, used);
    },
    flush,
    close() {
      clearInterval(timer);
      process.off('exit', atExit);
      flush();
    },
  };
}

/** The app's access log, or null when the level drops `info` lines; written through `logging.sink`. */
export function installAccessLog(
  app: FastifyInstance,
  logging: { sink: LogSink | null; infoEnabled: boolean; flush: () => void },
): AccessLog | null {
  if (!logging.sink || !logging.infoEnabled) {
    app.addHook('onClose', (_app, done) => {
      logging.flush();
      done();
    });
    return null;
  }
  const access = createAccessLog(logging.sink, { pid: process.pid, hostname: hostname() }, logging.flush);
  app.addHook('onResponse', (request, reply, done) => {
    access.write({
      reqId: request.id,
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTimeMs: reply.elapsedTime,
    });
    done();
  });
  app.addHook('onClose', (_app, done) => {
    access.close();
    logging.flush();
    done();
  });
  return access;
}
