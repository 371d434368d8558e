/**
 * A Server-Sent Events parser (the WHATWG "event stream interpretation"), fed text as it arrives.
 * Lines end with CRLF, LF or CR; `event:` names the event, each `data:` adds a line, a blank line
 * dispatches, `:` lines are comments (heartbeats). `id:` and `retry:` are not used by Folio and are
 * ignored. Written here rather than taken from EventSource, which cannot send the `x-cms-key` header.
 */
export interface SseEvent {
  event: string;
  data: string;
}

export function sseParser(onEvent: (event: SseEvent) => void): (chunk: string) => void {
  let rest = '';
  let event = '';
  let data: string[] = [];
  return (chunk) => {
    // A CR at the very end may be the first half of a CRLF: it stays in `rest` until more arrives.
    const lines = (rest + chunk).split(/\r\n|\n|\r(?!$)/);
    rest = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') {
        if (data.length > 0) onEvent({ event: event || 'message', data: data.join('\n') });
        event = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
  };
}
