import { createReadStream } from 'node:fs';
import { access, constants } from 'node:fs/promises';
import { resolve } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Config } from '../../../config.js';
import { unavailable } from '../../../shared/errors.js';
import { NET_CODES } from '../../../shared/net-codes.js';
import { createHeldBytes } from './held-bytes.js';
import { createStaging } from './staging.js';
import {
  assertKey,
  type ByteRange,
  type MediaStorage,
  type StoredMeta,
  type StoredObject,
} from './storage.js';

/**
 * Parts of a multipart upload (S3's minimum) and how many are in flight: an upload holds at most
 * PART_BYTES × PARTS_IN_FLIGHT in memory. Files up to PART_BYTES go up in one PutObject.
 */
const PART_BYTES = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;
/** Connections to the store at once (per instance). */
const MAX_SOCKETS = 256;
/** How long a successful readiness check of the bucket is trusted. */
const CHECK_TTL_MS = 5_000;
/** DeleteObjects takes at most this many keys per call. */
const DELETE_BATCH = 1000;

/**
 * The media store in one bucket of an S3-compatible service (AWS S3, Cloudflare R2, MinIO), shared by
 * every instance. Keys are the store's keys as they are; the metadata that local.ts keeps in a sidecar
 * is object metadata here (`Content-Type`, `x-amz-meta-sha256`, `x-amz-meta-filename` percent-encoded,
 * as header values are ASCII). Uploads are staged on local disk first (hashed and sniffed there), then
 * streamed up; PutObject and CompleteMultipartUpload are atomic, so readers see the whole object or none.
 *
 * No metadata cache, unlike local.ts: there a cached entry is only used once the data file has been
 * opened, which a deleted file cannot be. Here the HEAD is that check, so caching it would let an
 * instance keep answering (304, HEAD, a 200 whose GET then fails) for a file another instance deleted.
 * Every `open` is one HEAD. Small objects' bytes are kept in memory (held-bytes.ts, as local.ts
 * does) and served without a GET while the HEAD still finds the same ETag; other bodies are one GET.
 */
export function createS3Storage(
  settings: S3Config,
  dataDir: string,
  /** Told when the store could not answer (the request gets a 503); app.ts logs it. */
  onUnavailable: (err: unknown) => void,
  /** Bytes of small objects kept in memory (CMS_MEDIA_CACHE_BYTES). */
  heldBytes = 0,
): MediaStorage {
  const { bucket } = settings;
  const held = createHeldBytes(heldBytes);
  const staging = createStaging(resolve(dataDir, 'media', 'tmp'));
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint && { endpoint: settings.endpoint }),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.credentials && { credentials: settings.credentials }),
    // AWS: a bucket in another region than CMS_S3_REGION still works (one extra round trip).
    followRegionRedirects: true,
    // The SDK's default since 3.729 adds CRC32 checksums (aws-chunked trailers on streamed bodies) that
    // some S3-compatible services reject; checksums only where the API requires one (DeleteObjects).
    // The transfer itself is covered by TCP (and TLS on https endpoints).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: {
      // Without these a store that stops answering would hold requests (and sockets) forever:
      // connecting, the time to an answer's headers (a part's upload included; the handler only logs
      // it unless told to throw), and a body that stops flowing.
      connectionTimeout: 5_000,
      requestTimeout: 60_000,
      throwOnRequestTimeout: true,
      socketTimeout: 60_000,
      // Every body being served holds one connection until it is sent; the SDK's 50 would queue the
      // HEADs of other requests behind 50 slow downloads.
      httpAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
      httpsAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
    },
  });

  /** Runs one call to the store; a store that cannot answer now is a 503 the client retries, not a 500. */
  async function attempt<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      throw asUnavailable(err);
    }
  }

  function asUnavailable(err: unknown): unknown {
    if (!isUnavailable(err)) return err;
    onUnavailable(err);
    return unavailable(2, 'The media storage is briefly unavailable. Try again.');
  }

  async function head(key: string) {
    assertKey(key);
    try {
      return await attempt(() => client.send(new HeadObjectCommand({ Bucket: bucket, Key: key })));
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /**
   * The body (or a range of it) of the object the HEAD found. `If-Match` makes the GET fail rather
   * than send other bytes should the key have changed in between. The stream is returned at once (the
   * route sends it as it comes); a failed GET destroys it, which ends the response early.
   */
  function body(key: string, etag: string | undefined, size: number, range?: ByteRange): Readable {
    const out = new PassThrough();
    // Aborts the GET while it waits for an answer; once it streams, destroying `out` ends the pipeline.
    const abort = new AbortController();
    let answered = false;
    out.once('close', () => {
      if (!answered) abort.abort();
    });
    const expected = range ? range.end - range.start + 1 : size;
    client
      .send(
        new GetObjectCommand({
          Bucket: bucket,
          Key: key,
          ...(range && { Range: `bytes=${range.start}-${range.end}` }),
          ...(etag && { IfMatch: etag }),
        }),
        { abortSignal: abort.signal },
      )
      .then(async (res) => {
        answered = true;
        // A store that ignored the Range (or answered another length) must not reach the client.
        if (res.ContentLength !== expected) {
          (res.Body as Readable | undefined)?.destroy();
          throw new Error(`S3 answered ${res.ContentLength} bytes for ${key}, expected ${expected}`);
        }
        await pipeline(res.Body as Readable, out);
      })
      // Before the first byte the route answers this error (a store down is a 503, as for a HEAD).
      .catch((err: unknown) => out.destroy(asUnavailable(err) as Error));
    return out;
  }

  /** The whole object the HEAD found (If-Match: the same version), or null when it is gone since. */
  async function whole(key: string, etag: string | undefined): Promise<Buffer | null> {
    try {
      const res = await attempt(() =>
        client.send(new GetObjectCommand({ Bucket: bucket, Key: key, ...(etag && { IfMatch: etag }) })),
      );
      if (!res.Body) return null;
      const bytes = await res.Body.transformToByteArray();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /** Every key under `prefix`, one page (up to 1,000) at a time. */
  async function* listPages(prefix: string): AsyncGenerator<string[]> {
    if (!prefix.endsWith('/')) throw new Error(`Media key prefix must end with "/": ${prefix}`);
    assertKey(`${prefix}x`);
    let token: string | undefined;
    do {
      const page = await attempt(() =>
        client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token })),
      );
      yield (page.Contents ?? []).flatMap((item) => (item.Key ? [item.Key] : []));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  let checkedAt = 0;

  return {
    init: () => staging.init(),

    stagingPath: () => staging.path(),

    async put(key, stagedFile, meta) {
      assertKey(key);
      try {
        const upload = new Upload({
          client,
          params: {
            Bucket: bucket,
            Key: key,
            Body: createReadStream(stagedFile),
            ContentType: meta.contentType,
            Metadata: { sha256: meta.sha256, filename: encodeURIComponent(meta.filename) },
          },
          partSize: PART_BYTES,
          queueSize: PARTS_IN_FLIGHT,
        });
        await attempt(() => upload.done());
      } finally {
        await staging.discard(stagedFile);
      }
    },

    async open(key): Promise<StoredObject | null> {
      const found = await head(key);
      const meta = found && metaOf(found.ContentType, found.Metadata);
      // An object without our metadata was not put by us: as good as missing.
      if (!found || !meta || found.ContentLength === undefined) {
        held.forget(key);
        return null;
      }
      const size = found.ContentLength;
      // The ETag names the object's version: one that changed since is read again.
      const version = found.ETag;
      const object = version && held.current(key, version, size);
      if (object) return object;
      if (version && held.takes(size)) {
        const bytes = await whole(key, version);
        return bytes && held.hold(key, bytes, meta, version, size);
      }
      return {
        size,
        meta,
        stream: (range) => body(key, found.ETag, size, range),
        // Nothing is held until `stream` is called.
        close() {},
      };
    },

    async exists(key) {
      return (await head(key)) !== null;
    },

    async delete(key) {
      assertKey(key);
      held.forget(key);
      // S3 answers 204 for a key that does not exist: deleting twice is fine.
      await attempt(() => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key })));
    },

    async countPrefix(prefix) {
      let count = 0;
      for await (const keys of listPages(prefix)) count += keys.length;
      return count;
    },

    async deletePrefix(prefix) {
      held.forgetPrefix(prefix);
      for await (const keys of listPages(prefix)) {
        for (let i = 0; i < keys.length; i += DELETE_BATCH) {
          const batch = keys.slice(i, i + DELETE_BATCH);
          const res = await attempt(() =>
            client.send(
              new DeleteObjectsCommand({
                Bucket: bucket,
                Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
              }),
            ),
          );
          const failed = res.Errors ?? [];
          if (failed.length > 0) {
            throw new Error(
              `S3 did not delete ${failed.length} objects under ${prefix}: ${failed[0]?.Code} ${failed[0]?.Message}`,
            );
          }
        }
      }
    },

    discard: (stagedFile) => staging.discard(stagedFile),

    // Readiness: the local staging directory takes uploads and the bucket answers (HeadBucket: it
    // exists and the credentials reach it). A success is trusted for CHECK_TTL_MS, so a load
    // balancer polling every second costs the bucket one request per few seconds per instance.
    async check() {
      if (Date.now() - checkedAt < CHECK_TTL_MS) return;
      await access(staging.dir, constants.R_OK | constants.W_OK);
      await client.send(new HeadBucketCommand({ Bucket: bucket }));
      checkedAt = Date.now();
    },

    async close() {
      client.destroy();
    },
  };
}

function metaOf(
  contentType: string | undefined,
  metadata: Record<string, string> | undefined,
): StoredMeta | null {
  const sha256 = metadata?.sha256;
  if (!contentType || !sha256) return null;
  let filename = metadata.filename ?? '';
  try {
    filename = decodeURIComponent(filename);
  } catch {
    // Not our encoding: keep the raw value (it is only a Content-Disposition name).
  }
  return { contentType, sha256, filename };
}

/** No answer (connection refused or reset, timed out), or an answer that the store cannot serve now (5xx, SlowDown). */
function isUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; name?: string; $metadata?: { httpStatusCode?: number } } | null;
  const status = e?.$metadata?.httpStatusCode;
  if (status !== undefined) return status >= 500;
  // A socket-level code is passed on by the SDK after its own retries.
  return e?.name === 'TimeoutError' || (typeof e?.code === 'string' && NET_CODES.has(e.code));
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.$metadata?.httpStatusCode === 404 || e?.name === 'NotFound' || e?.name === 'NoSuchKey';
}
