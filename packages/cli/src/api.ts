import {
  type Credentials,
  createFolioClient,
  type FolioClient,
  type FolioResult,
  type Ok,
} from '@folio/client';
import { ApiError } from './io.js';

/**
 * The one way commands talk to Folio: the generated client (@folio/client, so no request or response
 * type is written here), and `call`, which turns a failed result into an ApiError that keeps the
 * API's code. Each command builds its client with only the credentials it needs: a stale FOLIO_TOKEN
 * left in the environment would otherwise make a bake fail, since a credential that is presented but
 * unknown is 401 even where it was optional.
 */
export function folioClient(url: string, credentials: Credentials = {}): FolioClient {
  return createFolioClient({
    baseUrl: url,
    credentials,
    headers: { 'user-agent': 'folio-cli/0.1.0' },
  });
}

/** A successful answer; any other throws an ApiError saying what was attempted and the API's code. */
export async function answer<R>(
  url: string,
  what: string,
  request: () => Promise<FolioResult<R>>,
): Promise<Ok<R>> {
  let result: FolioResult<R>;
  try {
    result = await request();
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new ApiError('network', 0, `could not ${what}: Folio at ${url} did not answer (${reason})`);
  }
  if (!result.ok) {
    const { code, message, details } = result.error;
    throw new ApiError(code, result.status, `could not ${what}: ${message}`, details);
  }
  if (result.notModified) throw new ApiError('unavailable', 304, `could not ${what}: unexpected 304`);
  return result;
}

/** The data of a successful answer (see `answer`). */
export async function call<R>(
  url: string,
  what: string,
  request: () => Promise<FolioResult<R>>,
): Promise<Ok<R>['data']> {
  return (await answer(url, what, request)).data;
}

/** Every page of a paginated list (`?cursor=`, `meta.nextCursor`), in the API's order. */
export async function readAll<T>(
  read: (cursor: string | undefined) => Promise<{ data: T[]; meta?: { nextCursor?: string } }>,
): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    all.push(...page.data);
    cursor = page.meta?.nextCursor;
  } while (cursor);
  return all;
}
