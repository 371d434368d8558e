import { createFolioClient, type FolioClient } from '@folio/client';

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
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Result<T> =
  | { ok: true; notModified: false; data: T; meta?: { nextCursor?: string } | undefined }
  | { ok: true; notModified: true }
  | { ok: false; status: number; error: { code: string; message: string; details?: unknown } };

/** The data of a successful call; anything else is thrown as an ApiError. */
export function unwrap<T>(result: Result<T>): T {
  if (!result.ok) {
    throw new ApiError(result.status, result.error.code, result.error.message, result.error.details);
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

/**
 * A client that reports a 401 on a call made with the session, so the app can ask to sign in again
 * (a failed login is `invalid_credentials`, also 401, but is sent without a session and so is not
 * reported). The check sits in `fetch` so that no call can forget it.
 */
export function createApi(onSessionRejected: () => void): FolioClient {
  const client = createFolioClient({
    baseUrl: window.location.origin,
    fetch: async (request) => {
      const response = await fetch(request);
      if (response.status === 401 && request.headers.get('authorization')?.startsWith('Bearer ')) {
        onSessionRejected();
      }
      return response;
    },
  });
  return client;
}

/** A message for an error of any kind, for an alert. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return `Folio could not be reached (${error.message}).`;
  return 'Something went wrong.';
}

/**
 * The message to show for a failed write, or null: a 401 is not shown, as the session provider already
 * brings the sign-in back in place of the screen.
 */
export function alertOf(error: unknown): string | null {
  if (!error) return null;
  if (error instanceof ApiError && error.status === 401) return null;
  return messageOf(error);
}
