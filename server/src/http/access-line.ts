/**
 * The access line's format, in one place: pino's JSON shape (level 30, time, pid, hostname, msg
 * "request") with the request's id, method, url, status and time. Two routes to the same bytes:
 *
 * - `encode` writes the line straight into the access log's batch buffer, byte by byte, for the
 *   usual line, whose id, method and url are printable ASCII with nothing JSON escapes. No string is
 *   built: the head up to the request id (time, pid, hostname) is kept as bytes and its time's
 *   digits written over once per millisecond, the rest are constant pieces, numbers written as
 *   digits, the request id copied from the bytes it was made from when the caller has them, and the
 *   other fields a character at a time. Why: at LOG_LEVEL=info the access line was the largest cost of a snapshot 304 beyond a bare
 *   server's: building the line as a string and encoding it took 1.3–1.6 µs of a 15 µs request
 *   (bench/results/speed-notes.md, round 11); this takes a fraction of that.
 * - `text` builds it as a string (fields escaped as JSON.stringify does), for everything else: a
 *   field to escape or beyond ASCII, or a time `encode` does not write. Both give the same bytes for
 *   the lines `encode` takes (access-line.test.ts compares them).
 */

export interface AccessLine {
  reqId: string;
  method: string;
  url: string;
  statusCode: number;
  responseTimeMs: number;
}

/** What JSON.stringify would escape in a string: quotes, backslashes, control characters, lone surrogates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
/** A JSON string literal: as JSON.stringify writes it, without its cost for the usual plain value. */
const jsonString = (value: string): string =>
  NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;

const bytesOf = (text: string): Uint8Array => Buffer.from(text, 'utf8');
const END = bytesOf(',"msg":"request"}\n');
/**
 * Whole milliseconds below this are written as digits here; beyond, `text` writes what JavaScript
 * prints. Below it the tenths are exact in a double, so both routes give the same digits.
 */
const MAX_INTEGER = 1e14;
/** The most bytes the response time takes on this route: 14 digits, a point and the tenth. */
const TIME_ROOM = 16;

/** Copies an ASCII string JSON leaves alone; -1 when a character needs escaping or is beyond ASCII. */
function putPlain(into: Uint8Array, at: number, value: string): number {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c > 0x7f) return -1;
    into[at + i] = c;
  }
  return at + value.length;
}

/** How many decimal digits a non-negative integer below MAX_INTEGER takes; 0 for anything else. */
function digitCount(value: number): number {
  if (!(value >= 0 && value < MAX_INTEGER) || value !== Math.floor(value)) return 0;
  let digits = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  return digits;
}

/** Writes a non-negative integer below MAX_INTEGER in decimal; -1 for anything else. */
function putInteger(into: Uint8Array, at: number, value: number): number {
  const digits = digitCount(value);
  if (digits === 0) return -1;
  let rest = value;
  for (let i = at + digits - 1; i >= at; i--) {
    const next = Math.floor(rest / 10);
    into[i] = 0x30 + (rest - next * 10);
    rest = next;
  }
  return at + digits;
}

/** Milliseconds to one decimal, as `${Math.round(ms * 10) / 10}` prints them ("12", "0.3"). */
function putTenths(into: Uint8Array, at: number, ms: number): number {
  const tenths = Math.round(ms * 10);
  const whole = Math.floor(tenths / 10);
  const end = putInteger(into, at, whole);
  const fraction = tenths - whole * 10;
  if (end < 0 || fraction === 0) return end;
  into[end] = 0x2e; // '.'
  into[end + 1] = 0x30 + fraction;
  return end + 2;
}

export interface AccessLineFormat {
  /**
   * Writes the line into `into` at `at` and returns its end; -1 when this route does not take it
   * (a field to escape or beyond ASCII, an odd number) or it might not fit: then use `text`.
   * Bytes after `at` may have been written either way.
   */
  encode(into: Uint8Array, at: number, line: AccessLine, now: number): number;
  /** The line as a string, escaped as JSON.stringify would. */
  text(line: AccessLine, now: number): string;
}

const HEAD_START = '{"level":30,"time":';

export function accessLineFormat(
  base: { pid: number; hostname: string },
  /**
   * The request id's bytes, when the caller has them (request-id.ts's newestIdBytes): ASCII JSON
   * leaves alone, copied in one `set` instead of a character at a time.
   */
  idBytes: (id: string) => Uint8Array | undefined = () => undefined,
): AccessLineFormat {
  const middle = `,"pid":${base.pid},"hostname":${JSON.stringify(base.hostname)},"reqId":`;
  let headTime = Number.NaN;
  let head: Uint8Array = new Uint8Array(0);
  /** How many digits the head's time has; 0 when it is not written as digits here. */
  let headDigits = 0;
  // The head changes with the millisecond. Only its time's digits do, so they are written over in
  // place; the head is built again only when their count changes (or the time is odd). Why: built
  // as a string and encoded (the double printed as text on the way), a new head cost about twice a
  // whole line, once a millisecond natively but about once a request under valgrind
  // (bench/speed/instructions.ts), where it hid what the line itself costs.
  const headAt = (now: number): Uint8Array => {
    if (now !== headTime) {
      const digits = digitCount(now);
      if (digits !== 0 && digits === headDigits) putInteger(head, HEAD_START.length, now);
      else {
        head = bytesOf(`${HEAD_START}${now}${middle}"`);
        headDigits = digits;
      }
      headTime = now;
    }
    return head;
  };
  // The constant bytes between the fields, by method and by status, made on first use. Bounded:
  // Node's parser takes a fixed list of methods, and only statuses 100-999 are kept.
  const afterReqId = new Map<string, Uint8Array | null>();
  const afterUrl: (Uint8Array | undefined)[] = [];
  const methodPiece = (method: string) => {
    let piece = afterReqId.get(method);
    if (piece === undefined) {
      piece = /^[A-Z]{1,20}$/.test(method) ? bytesOf(`","method":"${method}","url":"`) : null;
      if (afterReqId.size < 64) afterReqId.set(method, piece);
    }
    return piece;
  };
  const statusPiece = (status: number) => {
    if (!(status >= 100 && status <= 999) || status !== Math.floor(status)) return undefined;
    let piece = afterUrl[status];
    if (!piece) piece = afterUrl[status] = bytesOf(`","statusCode":${status},"responseTimeMs":`);
    return piece;
  };
  return {
    // Constant pieces go in with one `set` each, free text a character at a time (JavaScript's byte
    // loops cost about 1.5 ns a byte here, a `set` about 20 ns whatever its size).
    encode(into, at, line, now) {
      const start = headAt(now);
      const { reqId, url } = line;
      const method = methodPiece(line.method);
      const status = statusPiece(line.statusCode);
      if (!method || !status) return -1;
      const most =
        start.length + reqId.length + method.length + url.length + status.length + TIME_ROOM + END.length;
      if (at + most > into.length) return -1;
      into.set(start, at);
      let end = at + start.length;
      const id = idBytes(reqId);
      if (id) {
        into.set(id, end);
        end += id.length;
      } else {
        end = putPlain(into, end, reqId);
        if (end < 0) return -1;
      }
      into.set(method, end);
      end = putPlain(into, end + method.length, url);
      if (end < 0) return -1;
      into.set(status, end);
      end = putTenths(into, end + status.length, line.responseTimeMs);
      if (end < 0) return -1;
      into.set(END, end);
      return end + END.length;
    },

    text(line, now) {
      const ms = Math.round(line.responseTimeMs * 10) / 10;
      return `${HEAD_START}${now}${middle}${jsonString(line.reqId)},"method":${jsonString(line.method)},"url":${jsonString(line.url)},"statusCode":${line.statusCode},"responseTimeMs":${ms},"msg":"request"}\n`;
    },
  };
}
