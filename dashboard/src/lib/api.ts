import { createFolioClient, type FolioClient, type FolioError } from '@folio/client';

/**
 * The dashboard's one way to the API: the generated client (@folio/client, openapi-fetch), so no
 * request or response type is restated here. Results are unwrapped into their data or thrown as an
 * ApiError, which is what TanStack Query expects of a query function.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    /** A 401 that ended the session: the sign-in is back already, so the screen says nothing of it. */
    readonly sessionEnded = false,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Result<T> =
  | { ok: true; notModified: false; data: T; meta?: { nextCursor?: string } | undefined }
  | { ok: true; notModified: true }
  | { ok: false; status: number; error: FolioError; response?: Response };

/** The data of a successful call; anything else is thrown as an ApiError. */
export function unwrap<T>(result: Result<T>): T {
  if (!result.ok) {
    const { code, message, details } = result.error;
    throw new ApiError(result.status, code, message, details, sessionEnded(result));
  }
  // The dashboard never sends If-None-Match, so a 304 means a proxy answered for us.
  if (result.notModified) throw new ApiError(304, 'not_modified', 'The server answered 304 unexpectedly.');
  return result.data;
}

/** One page of a cursor-paginated list (contract §1): its items and the cursor of the next, if any. */
export interface Paged<T> {
  items: T[];
  nextCursor: string | undefined;
}

/** `unwrap` for paginated lists: keeps `meta.nextCursor`, which `unwrap` drops. */
export function unwrapPage<T extends unknown[]>(result: Result<T>): Paged<T[number]> {
  const items = unwrap(result);
  const nextCursor = result.ok && !result.notModified ? result.meta?.nextCursor : undefined;
  return { items, nextCursor };
}

/** Headers naming the project a call acts on (contract §2): sent on every project call. */
export const inProject = (projectId: string) => ({ 'x-cms-project-id': projectId });

/** What the client asks of the session when the API answers 401 to a call made with it. */
export interface SessionHooks {
  /**
   * The session of token `sent` is over (expired, or ended elsewhere): ask to sign in again, unless the
   * tab has moved on from that token (already signed out, or signed in again since the call was sent).
   */
  rejected(sent: string): void;
  /**
   * A token newer than `sent`, if the session was renewed while the call was on its way (a renewal
   * ends the old token at once, contract §2), after any renewal in flight has settled.
   */
  newerToken(sent: string): Promise<string | undefined>;
}

const REFRESH = '/v1/auth/refresh';
/**
 * Calls whose 401 is about what they carry, not the session: a wrong current password (`invalid_credentials`)
 * or a used or expired set-password link or invitation. The session is still good, so the sign-in must not
 * come back.
 */
const OWN_401 = new Set(['/v1/auth/password', '/v1/auth/set-password', '/v1/invitations/accept']);

/** The responses whose 401 ended the session (so `unwrap` marks its ApiError `sessionEnded`). */
const ended = new WeakSet<Response>();
const hooks = new WeakMap<FolioClient, SessionHooks>();

/** Whether a failed result is a 401 that ended the session (the sign-in is back: show nothing). */
export const sessionEnded = (result: { ok: boolean; response?: Response }) =>
  !result.ok && result.response !== undefined && ended.has(result.response);

/**
 * The one place a 401 is handled, for every call made with the session (the generated client's, and
 * uploads through XMLHttpRequest): if the session was renewed while the call was on its way, the newer
 * token to send it with once more; otherwise the session is over and the sign-in comes back (undefined).
 */
export async function afterUnauthorized(
  api: FolioClient,
  sent: string,
  { retry = true } = {},
): Promise<string | undefined> {
  const session = hooks.get(api);
  if (!session) return undefined;
  const newer = retry ? await session.newerToken(sent) : undefined;
  if (newer) return newer;
  session.rejected(sent);
  return undefined;
}

/**
 * A client that reports a 401 on a call made with the session, so the app can ask to sign in again
 * (a failed login is `invalid_credentials`, also 401, but is sent without a session and so is not
 * reported). A call that met a 401 only because the session was renewed meanwhile is sent once more
 * with the new token. The check sits in `fetch` so that no call can forget it.
 */
export function createApi(session: SessionHooks): FolioClient {
  const client = createFolioClient({
    baseUrl: window.location.origin,
    fetch: async (request) => {
      const sent = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
      const path = new URL(request.url).pathname;
      // Kept before the body is read, for a second try (the refresh itself is never retried: it is the renewal).
      const again = sent && path !== REFRESH ? request.clone() : undefined;
      const response = await fetch(request);
      if (response.status !== 401 || !sent || OWN_401.has(path)) return response;
      const newer = await afterUnauthorized(client, sent, { retry: again !== undefined });
      if (again && newer) {
        const headers = new Headers(again.headers);
        headers.set('authorization', `Bearer ${newer}`);
        const retried = await fetch(new Request(again, { headers }));
        if (retried.status !== 401) return retried;
        await afterUnauthorized(client, newer, { retry: false });
        ended.add(retried);
        return retried;
      }
      ended.add(response);
      return response;
    },
  });
  hooks.set(client, session);
  return client;
}

/** A message for an error of any kind, for an alert. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return `Folio could not be reached (${error.message}).`;
  return 'Something went wrong.';
}

/**
 * The message to show for a failed call, or null: a 401 that ended the session is not shown, as the
 * sign-in already stands in place of the screen (`afterUnauthorized`). Every screen shows errors
 * through this (or ErrorAlert, QueryState), so none decides about a 401 itself.
 */
export function alertOf(error: unknown): string | null {
  if (!error) return null;
  if (error instanceof ApiError && error.sessionEnded) return null;
  return messageOf(error);
}
