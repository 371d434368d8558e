import type { components } from './openapi.js';
import { REVALIDATED_HEADER } from './revalidate.js';

/**
 * Folio answers `{ data, error: null, meta? }` or `{ data: null, error: { code, message, details? } }`.
 * A call through the client resolves to one of three results instead of the raw envelope:
 * - `ok: true` with the envelope's `data` (and `meta`, e.g. `nextCursor` on lists), typed per operation;
 * - `ok: true, notModified: true` for a 304 (the `If-None-Match` you sent is still current; with
 *   `revalidate: true` the client sends it itself and answers its kept copy, `revalidated: true`);
 * - `ok: false` with the envelope's `error`, whose `code` is the closed list that operation documents.
 * Every result carries `status`, the response's `ETag` (or null) and the Response itself.
 */

export type ErrorCode = components['schemas']['ErrorCode'];
export type FolioError<Code extends ErrorCode = ErrorCode> = components['schemas']['Error'] & { code: Code };

type Body<R> = R extends { data: infer D } ? Exclude<D, undefined> : never;
type ErrorBody<R> = R extends { error: infer E } ? Exclude<E, undefined> : never;
type DataOf<B> = B extends { data: infer T } ? T : B;
type MetaOf<B> = B extends { meta?: infer M } ? M | undefined : undefined;
/** The `error` member of each documented error envelope: codes narrowed per status. */
type ErrorOf<E> = E extends { error: infer X } ? (X extends { code: ErrorCode } ? X : never) : never;

interface Common {
  status: number;
  /** The `ETag` response header; send it back as `If-None-Match`. */
  etag: string | null;
  response: Response;
}

export type Ok<R> = Common & {
  ok: true;
  notModified: false;
  data: DataOf<Body<R>>;
  meta: MetaOf<Body<R>>;
  /** The client's own copy, confirmed current by a 304 (`revalidate: true`); `status` is then 304. */
  revalidated: boolean;
};
export type NotModified = Common & { ok: true; notModified: true; data: undefined; meta: undefined };
export type Failed<R> = Common & {
  ok: false;
  notModified: false;
  /** The documented errors of the operation; an answer without Folio's envelope (a proxy's 502) is `unavailable`. */
  error: ErrorOf<ErrorBody<R>> | FolioError<'unavailable'>;
};
export type FolioResult<R> = Ok<R> | NotModified | Failed<R>;

/** Turns openapi-fetch's `{ data | error, response }` into a FolioResult. */
export function toResult<R extends { data?: unknown; error?: unknown; response: Response }>(
  raw: R,
): FolioResult<R> {
  const { response } = raw;
  const common = { status: response.status, etag: response.headers.get('etag'), response };
  if (response.status === 304) {
    return { ...common, ok: true, notModified: true, data: undefined, meta: undefined };
  }
  if (response.ok) {
    const revalidated = response.headers.get(REVALIDATED_HEADER) === 'true';
    const body = raw.data as { data?: unknown; meta?: unknown } | undefined;
    // Enveloped JSON is unwrapped; anything else (an image from /media, /health) is returned as is.
    const enveloped = body !== null && typeof body === 'object' && 'data' in body && 'error' in body;
    return {
      ...common,
      status: revalidated ? 304 : response.status,
      ok: true,
      notModified: false,
      revalidated,
      data: (enveloped ? body.data : body) as DataOf<Body<R>>,
      meta: (enveloped ? body.meta : undefined) as MetaOf<Body<R>>,
    };
  }
  const envelope = raw.error as { error?: { code?: unknown } } | undefined;
  const error =
    envelope && typeof envelope === 'object' && typeof envelope.error?.code === 'string'
      ? (envelope.error as ErrorOf<ErrorBody<R>>)
      : ({
          code: 'unavailable',
          message: `HTTP ${response.status} without Folio's error envelope.`,
        } satisfies FolioError<'unavailable'>);
  return { ...common, ok: false, notModified: false, error };
}
