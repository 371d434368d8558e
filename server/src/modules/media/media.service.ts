import type { Readable } from 'node:stream';
import type { Db } from '../../db/database.js';
import type { Outbox } from '../../outbox/index.js';
import { decodeCursor } from '../../shared/cursor.js';
import { notFound } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import type { UserActor } from '../../shared/principals.js';
import { isoNow } from '../../shared/time.js';
import { withoutControls } from './media.http.js';
import * as repo from './media.repository.js';
import { inspectImage, stageStream } from './media.staging.js';
import type { MediaRow } from './media.table.js';
import { variantsPrefix } from './media.variants.js';
import type { MediaStorage } from './storage/storage.js';

/** The record of contract §3. */
export interface Media {
  id: string;
  filename: string;
  mimeType: string;
  size: number;
  width: number;
  height: number;
  url: string;
  createdAt: string;
}

export interface MediaOptions {
  maxBytes: number;
  /** CMS_PUBLIC_URL: the base of media URLs when a project has no cdnUrl; null when not set. */
  publicUrl: string | null;
  /** This instance's own address (`http://HOST:PORT`), recorded as the base when publicUrl is null. */
  instanceUrl: string;
  /** The project's CDN base (the projects module owns it; app.ts hands over its site cache). */
  cdnUrlOf(projectId: string): Promise<string | null>;
}

export interface UploadInput {
  stream: Readable;
  /** The client's file name: data only, never a path. */
  filename: string;
}

/** Where the bytes of a media id are served from, relative to the public base. */
export const publicPath = (projectId: string, storageKey: string): string =>
  `/media/${projectId}/${storageKey.slice(storageKey.lastIndexOf('/') + 1)}`;

export const originalKey = (projectId: string, mediaId: string, ext: string): string =>
  `originals/${projectId}/${mediaId}.${ext}`;

/**
 * The client's name as data: the last path segment (browsers send no more, crafted names may),
 * without control characters, at most 255 characters. Empty falls back to a name of ours.
 */
export function cleanFilename(name: string | undefined, ext: string): string {
  const base = withoutControls((name ?? '').normalize('NFC'))
    .split(/[/\\]/)
    .pop()!
    .trim()
    .slice(0, 255);
  return base === '' || base === '.' || base === '..' ? `upload.${ext}` : base;
}

/**
 * A media URL's base, the same whichever instance answers: the project's cdnUrl (shared through the
 * database), else CMS_PUBLIC_URL (the same on every instance, as documented), else the base recorded at
 * upload. Rejected: this instance's own address, which differs per instance (HOST, PORT) when
 * CMS_PUBLIC_URL is not set, so one file was listed under a different URL by each instance.
 */
function baseOf(cdnUrl: string | null, publicUrl: string | null, row: MediaRow, instanceUrl: string): string {
  return (cdnUrl ?? publicUrl ?? row.publicBase ?? instanceUrl).replace(/\/+$/, '');
}

export function createMediaService(db: Db, outbox: Outbox, storage: MediaStorage, options: MediaOptions) {
  const { enqueueEvent, recordActivity } = outbox;
  const toMedia = (row: MediaRow, cdnUrl: string | null): Media => ({
    id: row.id,
    filename: row.filename,
    mimeType: row.mimeType,
    size: Number(row.size),
    width: row.width,
    height: row.height,
    url: `${baseOf(cdnUrl, options.publicUrl, row, options.instanceUrl)}${publicPath(row.projectId, row.storageKey)}`,
    createdAt: row.createdAt,
  });

  async function removeFiles(pending: { storageKey: string; projectId: string; mediaId: string }) {
    await storage.delete(pending.storageKey);
    await storage.deletePrefix(variantsPrefix(pending.projectId, pending.mediaId));
    await repo.clearDeletion(db, pending.storageKey);
  }

  return {
    /**
     * Stage → inspect → move into place → record. Each step that fails undoes the ones before it,
     * so a failed upload leaves neither a file nor a row.
     */
    async upload(projectId: string, input: UploadInput, actor: UserActor): Promise<Media> {
      const staged = storage.stagingPath();
      let key: string;
      let row: MediaRow;
      try {
        const file = await stageStream(input.stream, staged, options.maxBytes);
        const image = await inspectImage(file, staged);
        const id = newId('med');
        key = originalKey(projectId, id, image.ext);
        row = {
          id,
          projectId,
          filename: cleanFilename(input.filename, image.ext),
          mimeType: image.mimeType,
          size: file.size,
          width: image.width,
          height: image.height,
          sha256: file.sha256,
          storageKey: key,
          publicBase: options.publicUrl ?? options.instanceUrl,
          createdAt: isoNow(),
        };
        await storage.put(key, staged, {
          contentType: row.mimeType,
          sha256: row.sha256,
          filename: row.filename,
        });
      } catch (err) {
        await storage.discard(staged);
        throw err;
      }

      const cdnUrl = await options.cdnUrlOf(projectId).catch(async (err) => {
        await storage.delete(key);
        throw err;
      });
      const media = toMedia(row, cdnUrl);
      try {
        await db.transaction().execute(async (trx) => {
          await repo.insertMedia(trx, row);
          await enqueueEvent(trx, projectId, 'media.uploaded', { media });
          await recordActivity(trx, projectId, actor, {
            action: 'media.uploaded',
            target: { type: 'media', id: row.id },
            summary: `${actor.email} uploaded ${row.filename} (${row.width}×${row.height}).`,
          });
        });
      } catch (err) {
        await storage.delete(key);
        throw err;
      }
      return media;
    },

    async list(projectId: string, limit: number, cursor?: string): Promise<Media[]> {
      const rows = await repo.listMedia(db, projectId, limit, decodeCursor(cursor));
      const cdnUrl = await options.cdnUrlOf(projectId);
      return rows.map((row) => toMedia(row, cdnUrl));
    },

    /**
     * The row goes first, with its event and a pending-removal record, in one transaction: from then
     * on no record points at the bytes. The files go after, then the record; a crash in between
     * leaves the record, and `sweepDeletions` at the next start removes the files. Files already
     * missing are fine.
     */
    async remove(projectId: string, id: string, actor: UserActor): Promise<void> {
      const pending = await db.transaction().execute(async (trx) => {
        const found = await repo.findMedia(trx, projectId, id);
        if (!found || !(await repo.deleteMedia(trx, projectId, id))) throw notFound('Media');
        await enqueueEvent(trx, projectId, 'media.deleted', { media: { id, filename: found.filename } });
        await recordActivity(trx, projectId, actor, {
          action: 'media.deleted',
          target: { type: 'media', id },
          summary: `${actor.email} deleted ${found.filename}.`,
        });
        const deletion = { storageKey: found.storageKey, projectId, mediaId: id, createdAt: isoNow() };
        await repo.insertDeletion(trx, deletion);
        return deletion;
      });
      await removeFiles(pending);
    },

    /** Finishes removals a crash interrupted (called at start). Returns how many it finished. */
    async sweepDeletions(): Promise<number> {
      let done = 0;
      for (;;) {
        const batch = await repo.pendingDeletions(db, 100);
        for (const pending of batch) await removeFiles(pending);
        done += batch.length;
        if (batch.length < 100) return done;
      }
    },
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
