import type { StorageConfig } from '../../../config.js';
import { createLocalStorage } from './local.js';
import type { MediaStorage } from './storage.js';

/**
 * The one place the media store is chosen (CMS_STORAGE); routes and the service see only MediaStorage.
 * The S3 client is imported only when it is the store: the AWS SDK is hundreds of modules that a
 * server on local storage would load at every start for nothing (issue 13 #2).
 */
export async function createMediaStorage(
  storage: StorageConfig,
  dataDir: string,
  /** Bytes of small files the store keeps in memory (CMS_MEDIA_CACHE_BYTES). */
  cacheBytes: number,
  /** A remote store could not answer (the request got a 503): for the log. */
  onUnavailable: (err: unknown) => void,
): Promise<MediaStorage> {
  if (storage.kind !== 's3') return createLocalStorage(dataDir, cacheBytes);
  const { createS3Storage } = await import('./s3.js');
  return createS3Storage(storage, dataDir, onUnavailable, cacheBytes);
}
