import createClient, { type FetchResponse, type MaybeOptionalInit, type Middleware } from 'openapi-fetch';
import type { HttpMethod, MediaType, PathsWithMethod, RequiredKeysOf } from 'openapi-typescript-helpers';
import type { paths } from './openapi.js';
import { type FolioResult, toResult } from './result.js';
import { revalidationCache } from './revalidate.js';

/**
 * A thin layer over openapi-fetch: the same typed methods (`GET('/v1/users')`, paths and parameters
 * checked against the generated `paths`), with the credentials added to every request and the
 * envelope unwrapped into a FolioResult. Nothing is restated by hand: request and response types come
 * from the OpenAPI document (src/openapi.ts, generated).
 */

export interface Credentials {
  /** A session token from `login` (sent as `Authorization: Bearer`). */
  session?: string;
  /** A secret API key, `cms_sk_…` (sent as `Authorization: Bearer`; it wins over `session`). Servers only. */
  secretKey?: string;
  /** The site's publishable key, `cms_pk_…` (sent as `x-cms-key`). */
  publishableKey?: string;
  /** The project, when the credential covers several (sent as `x-cms-project-id`). */
  projectId?: string;
}

export interface FolioClientOptions {
  /** Where Folio runs, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  credentials?: Credentials;
  /** Another fetch (tests, a runtime's own); the global one by default. */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request (e.g. a user agent). */
  headers?: Record<string, string>;
  /**
   * Keep GET answers that carry an ETag and revalidate them with If-None-Match (src/revalidate.ts);
   * a 304 then answers the kept copy. Off by default.
   */
  revalidate?: boolean | { maxEntries: number };
}

// openapi-fetch's own parameter rule (kept private there): the init argument is optional exactly
// when the operation has no required parameter or body.
type InitParam<Init> =
  RequiredKeysOf<Init> extends never
    ? [(Init & { [key: string]: unknown })?]
    : [Init & { [key: string]: unknown }];

// openapi-fetch's ClientMethod, returning a FolioResult. Its constraint on Paths is loosened: the
// generated paths mark absent methods `?: never`, which openapi-fetch's own (stricter) constraint only
// accepts because its declarations are not type-checked (skipLibCheck).
// biome-ignore lint/suspicious/noExplicitAny: a path item's methods are looked up generically, as in openapi-fetch.
type ClientMethod<Paths extends Record<string, any>, M extends HttpMethod> = <
  Path extends PathsWithMethod<Paths, M>,
  Init extends MaybeOptionalInit<Paths[Path], M>,
>(
  url: Path,
  ...init: InitParam<Init>
) => Promise<FolioResult<FetchResponse<Paths[Path][M], Init, MediaType>>>;
type Method<M extends HttpMethod> = ClientMethod<paths, M>;

export interface FolioClient {
  GET: Method<'get'>;
  POST: Method<'post'>;
  PATCH: Method<'patch'>;
  DELETE: Method<'delete'>;
  /** Replaces the credentials (a key set to undefined is dropped), e.g. after login or refresh. */
  setCredentials(credentials: Credentials): void;
  /** Changes some credentials and keeps the others. */
  updateCredentials(credentials: Partial<Credentials>): void;
  readonly credentials: Readonly<Credentials>;
}

export function createFolioClient(options: FolioClientOptions): FolioClient {
  let credentials: Credentials = { ...options.credentials };
  const raw = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: options.headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  // Headers given for one call (typed `params.header`) win over the client's credentials.
  const credentialHeaders: Middleware = {
    onRequest({ request }) {
      const bearer = credentials.secretKey ?? credentials.session;
      if (bearer && !request.headers.has('authorization')) {
        request.headers.set('authorization', `Bearer ${bearer}`);
      }
      if (credentials.publishableKey && !request.headers.has('x-cms-key')) {
        request.headers.set('x-cms-key', credentials.publishableKey);
      }
      if (credentials.projectId && !request.headers.has('x-cms-project-id')) {
        request.headers.set('x-cms-project-id', credentials.projectId);
      }
      return request;
    },
  };
  raw.use(credentialHeaders);
  // After the credentials: the kept copies are keyed by them.
  if (options.revalidate) {
    raw.use(revalidationCache(options.revalidate === true ? undefined : options.revalidate.maxEntries));
  }

  // openapi-fetch's methods are generic over the same paths; the casts only forward the arguments.
  const call =
    <M extends 'GET' | 'POST' | 'PATCH' | 'DELETE'>(method: M) =>
    async (url: string, init?: object) =>
      toResult(
        await (raw[method] as (u: string, i?: object) => Promise<FetchResponse<never, never, MediaType>>)(
          url,
          init,
        ),
      );

  return {
    GET: call('GET') as unknown as Method<'get'>,
    POST: call('POST') as unknown as Method<'post'>,
    PATCH: call('PATCH') as unknown as Method<'patch'>,
    DELETE: call('DELETE') as unknown as Method<'delete'>,
    setCredentials(next) {
      credentials = { ...next };
    },
    updateCredentials(next) {
      credentials = { ...credentials, ...next };
    },
    get credentials() {
      return credentials;
    },
  };
}
