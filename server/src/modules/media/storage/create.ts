import type { StorageConfig } from '../../../config.js';
import { createLocalStorage } from './local.js';
import { createS3Storage } from './s3.js';
import type { MediaStorage } from './storage.js';

/** The one place the media store is chosen (CMS_STORAGE); routes and the service see only MediaStorage. */
export function createMediaStorage(
  storage: StorageConfig,
  dataDir: string,
  /** A remote store could not answer (the request got a 503): for the log. */
  onUnavailable: (err: unknown) => void,
): MediaStorage {
  return storage.kind === 's3'
    ? createS3Storage(storage, dataDir, onUnavailable)
    : createLocalStorage(dataDir);
}
