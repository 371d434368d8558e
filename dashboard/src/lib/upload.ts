import type { FolioClient, FolioError } from '@folio/client';
import { ApiError, afterUnauthorized } from './api';

/**
 * A multipart POST with upload progress, sent with `api`'s session. A 401 goes through the client's one
 * handling (`afterUnauthorized`): sent once more if the session was renewed meanwhile, else the sign-in
 * comes back and the ApiError is marked `sessionEnded`.
 */
export async function uploadWithSession<T>(
  api: FolioClient,
  options: Parameters<typeof postWithProgress>[0],
): Promise<{ status: number; data: T }> {
  const send = (token: string) =>
    postWithProgress<T>({ ...options, headers: { ...options.headers, authorization: `Bearer ${token}` } });
  let token = api.credentials.session ?? '';
  for (let attempt = 0; ; attempt++) {
    try {
      return await send(token);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401) || !token) throw error;
      const newer = await afterUnauthorized(api, token, { retry: attempt === 0 });
      if (!newer) {
        throw new ApiError(error.status, error.code, error.message, error.details, true);
      }
      token = newer;
    }
  }
}

/**
 * A multipart POST with upload progress. fetch cannot report how much of a request body was sent
 * (streaming request bodies need HTTP/2 and duplex, and still say nothing about what the network took),
 * so uploads use XMLHttpRequest, whose `upload.onprogress` does. The answer is Folio's envelope, read as
 * the generated client would: the data, or an ApiError with the API's code and message.
 */
export function postWithProgress<T>(options: {
  url: string;
  headers: Record<string, string>;
  body: FormData;
  onProgress(fraction: number): void;
  signal?: AbortSignal;
}): Promise<{ status: number; data: T }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', options.url);
    for (const [name, value] of Object.entries(options.headers)) xhr.setRequestHeader(name, value);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      const body = xhr.response as { data?: T; error?: FolioError } | null;
      if (xhr.status >= 200 && xhr.status < 300 && body && body.data !== undefined) {
        options.onProgress(1);
        resolve({ status: xhr.status, data: body.data });
      } else if (body?.error) {
        reject(new ApiError(xhr.status, body.error.code, body.error.message, body.error.details));
      } else {
        reject(new ApiError(xhr.status, 'unavailable', `HTTP ${xhr.status} without Folio's error envelope.`));
      }
    };
    xhr.onerror = () => reject(new Error('the connection failed'));
    xhr.onabort = () => reject(new DOMException('Upload canceled', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(options.body);
  });
}
