import type { Selectable } from 'kysely';

/** One uploaded image. The bytes are in the media store under `storageKey` (never a client name). */
export interface MediaTable {
  id: string;
  projectId: string;
  /** The client's original file name, kept as data only (Content-Disposition, listings). */
  filename: string;
  mimeType: string;
  size: number;
  width: number;
  height: number;
  /** Hex SHA-256 of the bytes: the strong ETag of the served file. */
  sha256: string;
  storageKey: string;
  /**
   * The URL base at upload (CMS_PUBLIC_URL or the uploading instance's address): the base of `url`
   * wherever it is listed, unless the project has a cdnUrl or the instance has CMS_PUBLIC_URL.
   * Null for rows from before migration 0014.
   */
  publicBase: string | null;
  createdAt: string;
}

export type MediaRow = Selectable<MediaTable>;

/** A media file whose row is gone but whose bytes may not be yet (see the 0004 migration). */
export interface MediaDeletionsTable {
  storageKey: string;
  projectId: string;
  mediaId: string;
  createdAt: string;
}
