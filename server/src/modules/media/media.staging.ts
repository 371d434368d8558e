import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { payloadTooLarge, unsupportedMediaType, validationFailed } from '../../shared/errors.js';

/**
 * The first steps of an upload, on a local staging file: copy the stream while counting and
 * hashing (never the whole file in memory), then decide the type from the bytes and read the
 * dimensions. Nothing here writes to the database or the store.
 */

/** What we accept, by sniffed MIME type: the served type and the stored extension. */
const ACCEPTED: Record<string, { mimeType: string; ext: string }> = {
  'image/png': { mimeType: 'image/png', ext: 'png' },
  // Animated PNG is a PNG to every browser; file-type tells it apart, we need not.
  'image/apng': { mimeType: 'image/png', ext: 'png' },
  'image/jpeg': { mimeType: 'image/jpeg', ext: 'jpg' },
  'image/gif': { mimeType: 'image/gif', ext: 'gif' },
  'image/webp': { mimeType: 'image/webp', ext: 'webp' },
  'image/avif': { mimeType: 'image/avif', ext: 'avif' },
};

/** Extension to served type, for files named by us (`<mediaId>.<ext>`). */
export const MIME_BY_EXT: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
};

/** sharp's own default input limit (16383²): larger images could never be resized, so refuse them. */
export const MAX_INPUT_PIXELS = 0x3fff * 0x3fff;
/** file-type needs at most this many leading bytes to decide. */
const SNIFF_BYTES = 4100;

export interface StagedFile {
  size: number;
  sha256: string;
  head: Buffer;
}

class TooLarge extends Error {}

/** Streams `source` into `target`; a 413 once more than `maxBytes` arrive. The caller removes `target` on failure. */
export async function stageStream(source: Readable, target: string, maxBytes: number): Promise<StagedFile> {
  const hash = createHash('sha256');
  const headChunks: Buffer[] = [];
  let headLength = 0;
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      // Our own cut-off too: the multipart limit should stop it first, but the rule lives here.
      if (size > maxBytes) return done(new TooLarge());
      hash.update(chunk);
      if (headLength < SNIFF_BYTES) {
        headChunks.push(chunk.subarray(0, SNIFF_BYTES - headLength));
        headLength += Math.min(chunk.length, SNIFF_BYTES - headLength);
      }
      done(null, chunk);
    },
  });
  // An error of the source itself is the client's body (a truncated or malformed multipart form:
  // a 400); an error of the disk is ours (a 500). The source may have failed before it got here
  // (the whole body had arrived), so its `errored` counts as well as a later 'error' event.
  let sourceError: unknown = source.errored;
  source.once('error', (err) => {
    sourceError = err;
  });
  try {
    await pipeline(source, meter, createWriteStream(target, { flags: 'wx' }));
  } catch (err) {
    if (err instanceof TooLarge || (err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw tooLarge(maxBytes);
    }
    if (err === sourceError) throw malformedForm();
    throw err;
  }
  // busboy stops at the limit and marks the stream truncated instead of failing it.
  if ((source as Readable & { truncated?: boolean }).truncated) throw tooLarge(maxBytes);
  return { size, sha256: hash.digest('hex'), head: Buffer.concat(headChunks) };
}

/** The multipart body cannot be read to its end (busboy's errors: truncated, bad boundary, bad headers). */
export const malformedForm = () =>
  validationFailed('The request body is not valid multipart/form-data.', [
    {
      path: 'body',
      message: 'is not valid multipart/form-data (check the boundary and that the body is complete)',
    },
  ]);

const tooLarge = (maxBytes: number) =>
  payloadTooLarge(`The file is larger than the upload limit of ${maxBytes} bytes.`);

export interface ImageFacts {
  mimeType: string;
  ext: string;
  width: number;
  height: number;
}

/** The type from the leading bytes (never the name or the declared type) and the displayed size. */
export async function inspectImage(staged: StagedFile, path: string): Promise<ImageFacts> {
  if (staged.size === 0) {
    throw validationFailed('The file is empty.', [{ path: 'body.file', message: 'is empty' }]);
  }
  const sniffed = await fileTypeFromBuffer(staged.head);
  const accepted = sniffed ? ACCEPTED[sniffed.mime] : undefined;
  if (!accepted) {
    throw unsupportedMediaType(
      `Only PNG, JPEG, GIF, WebP and AVIF images are accepted${sniffed ? ` (this file is ${sniffed.mime})` : ''}.`,
    );
  }
  let width: number | undefined;
  let height: number | undefined;
  try {
    const meta = await sharp(path).metadata();
    // Displayed size: an EXIF-rotated JPEG shows with width and height swapped.
    width = meta.autoOrient?.width ?? meta.width;
    height = meta.autoOrient?.height ?? meta.height;
  } catch {
    // Right magic bytes, unreadable header.
  }
  if (!width || !height) throw unsupportedMediaType('The file is not a readable image.');
  if (width * height > MAX_INPUT_PIXELS) {
    throw payloadTooLarge(
      `The image is ${width}×${height}; at most ${MAX_INPUT_PIXELS} pixels are accepted.`,
    );
  }
  return { ...accepted, width, height };
}
