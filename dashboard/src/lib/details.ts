import { ApiError } from './api';
import { humanBytes } from './format';
import { own } from './own';

/**
 * The API's `details` ([{ path, message }], contract §1) in plain words, at the field or control they
 * concern: a form shows `detailsAt(error, 'body.fields')` under each field rather than the error's
 * general message alone ("Some field values are not valid." said nothing of which, or why).
 */

interface Detail {
  path: string;
  message: string;
}

const detailsOf = (error: unknown): Detail[] =>
  error instanceof ApiError && Array.isArray(error.details)
    ? (error.details as unknown[]).filter(
        (d): d is Detail =>
          typeof d === 'object' &&
          d !== null &&
          typeof (d as Detail).path === 'string' &&
          typeof (d as Detail).message === 'string',
      )
    : [];

/**
 * A detail's message as a sentence an editor reads: byte counts in KB/MB, a capital and a full stop,
 * and for a hook target on the machine's own network, why it is refused and how to allow it.
 */
export function plainDetail(message: string): string {
  let text = humanBytes(message.trim());
  text = `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
  if (!/[.!?]$/.test(text)) text += '.';
  if (/loopback, private, link-local or otherwise reserved address/.test(message)) {
    text +=
      ' Folio does not call addresses on its own network, so that a hook cannot reach services behind it. ' +
      'For a receiver on your own machine (development), start Folio with CMS_ALLOW_PRIVATE_HOOK_TARGETS=true.';
  }
  return text;
}

/**
 * The segment right under `container` in a detail's path: a key after a dot or an index in brackets,
 * the API's one path syntax (`body.deployHooks[1].url`, `body.fields.items[0].title`). Null when the
 * path is not under it.
 */
export function segmentUnder(path: string, container: string): string | null {
  if (!path.startsWith(container)) return null;
  const rest = path.slice(container.length);
  const index = /^\[(\d+)\]/.exec(rest);
  if (index) return index[1]!;
  if (!rest.startsWith('.')) return null;
  return /^\.([^.[]*)/.exec(rest)![1]!;
}

/**
 * Plain messages by the segment right under `container`: `body.fields.items[0].title` →
 * `{ items: … }` under `body.fields`, `body.deployHooks[1].url` → `{ 1: … }` under `body.deployHooks`.
 */
export function detailsAt(error: unknown, container: string): Record<string, string> {
  const byKey: Record<string, string> = {};
  for (const { path, message } of detailsOf(error)) {
    const key = segmentUnder(path, container);
    if (key === null) continue;
    const before = own(byKey, key); // a field may be named `constructor` (./own.ts)
    byKey[key] = before ? `${before} ${plainDetail(message)}` : plainDetail(message);
  }
  return byKey;
}
