import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { payloadTooLarge, unsupportedMediaType, validationFailed } from '../../shared/errors.js';
import { loadSharp } from './sharp.js';

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

/**
 * What an image may cost to decode, checked at upload from its header: width × height × frames ×
 * channels × bytes per sample. Variant URLs are public, and some images (interlaced PNG, progressive
 * JPEG) are decoded whole before they can be resized, so this is the memory one anonymous request
 * can make a variant take. 80 MiB admits an 8-bit RGB photo of 28 megapixels (6000×4000 cameras) or
 * 8-bit RGBA of 21, and a 16-bit RGBA image of 10. Measured with `node dist/server.js`: 20 parallel
 * variant requests for the worst accepted image (16-bit RGBA interlaced PNG, or a progressive JPEG)
 * peak at 277–287 MiB resident; 100 MiB peaked at 300. Before it, sharp's own limit (16383², 268
 * megapixels) let a 2 MB 16-bit PNG decode to 2 GB. Frames count: an animation is decoded whole.
 */
export const MAX_DECODED_BYTES = 80 * 1024 * 1024;
/** The pixel bound handed to sharp when variants are made (frames of an animation included). */
export const MAX_INPUT_PIXELS = 40_000_000;
const BYTES_PER_SAMPLE: Record<string, number> = {
  uchar: 1,
  char: 1,
  ushort: 2,
  short: 2,
  uint: 4,
  int: 4,
  float: 4,
};
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
  const sink = createWriteStream(target, { flags: 'wx' });
  try {
    await pipeline(source, meter, sink);
  } catch (err) {
    // The file is opened asynchronously, and a source that failed before the pipeline began
    // can end it before the open has happened: the caller's removal would then run first and
    // the file be created after it, left behind. Seen under load; so wait for the sink's close.
    if (!sink.closed) await new Promise<void>((resolve) => sink.once('close', () => resolve()));
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
  // Imported on the first upload: file-type and its parsers are not needed by a server that takes none.
  const { fileTypeFromBuffer } = await import('file-type');
  const sniffed = await fileTypeFromBuffer(staged.head);
  const accepted = sniffed ? ACCEPTED[sniffed.mime] : undefined;
  if (!accepted) {
    throw unsupportedMediaType(
      `Only PNG, JPEG, GIF, WebP and AVIF images are accepted${sniffed ? ` (this file is ${sniffed.mime})` : ''}.`,
    );
  }
  let width: number | undefined;
  let height: number | undefined;
  let decoded = 0;
  let pixels = 0;
  try {
    const meta = await (await loadSharp())(path).metadata();
    // Displayed size: an EXIF-rotated JPEG shows with width and height swapped.
    width = meta.autoOrient?.width ?? meta.width;
    height = meta.autoOrient?.height ?? meta.height;
    pixels = meta.width * meta.height * (meta.pages ?? 1);
    decoded = pixels * meta.channels * (BYTES_PER_SAMPLE[meta.depth] ?? 8);
  } catch {
    // Right magic bytes, unreadable header.
  }
  if (!width || !height) throw unsupportedMediaType('The file is not a readable image.');
  if (decoded > MAX_DECODED_BYTES || pixels > MAX_INPUT_PIXELS) {
    const mib = Math.ceil(decoded / 1024 / 1024);
    throw payloadTooLarge(
      `The image is ${width}×${height} and would take ${mib} MiB to decode; at most ${MAX_DECODED_BYTES / 1024 / 1024} MiB (and ${MAX_INPUT_PIXELS} pixels) are accepted.`,
    );
  }
  return { ...accepted, width, height };
}
