/**
 * The one syntax of a problem's `path` in error `details` (issue 44): where the value is in the
 * request, object keys after dots and array indices in brackets, `body.components[0].fields[2].key`
 * (as publish `problems` write `fields.items[1].ref`). Our own checks build their paths this way;
 * schema validation reports JSON Pointers (`/components/0/fields/2`), converted here.
 */

/**
 * A JSON Pointer's segments as a path under `context` (`body`, `querystring`, ...). Whether a segment
 * is an index is read from `input`, the value the pointer points into: `/fields/0` is `fields.0` when
 * `fields` is an object with a key "0" (a field may be named so) and `fields[0]` when it is an array.
 * Rejected: a digits-only rule, which would write an object's key "0" as an index.
 */
export function pointerPath(context: string, pointer: string, input: unknown, last?: string): string {
  let path = context;
  let value: unknown = input;
  const segments = pointer.split('/').slice(1).map(unescapeSegment);
  if (last !== undefined) segments.push(last);
  for (const segment of segments) {
    if (Array.isArray(value) && /^(0|[1-9]\d*)$/.test(segment)) {
      path += `[${segment}]`;
      value = value[Number(segment)];
    } else {
      path += `.${segment}`;
      value =
        value !== null && typeof value === 'object' && Object.hasOwn(value, segment)
          ? (value as Record<string, unknown>)[segment]
          : undefined;
    }
  }
  return path;
}

/** RFC 6901: `~1` is "/" and `~0` is "~", in that order. */
const unescapeSegment = (segment: string) => segment.replaceAll('~1', '/').replaceAll('~0', '~');
