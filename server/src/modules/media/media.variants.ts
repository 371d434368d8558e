import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { notFound, unsupportedMediaType, validationFailed } from '../../shared/errors.js';
import { createJobLimit } from '../../shared/job-limit.js';
import { MAX_INPUT_PIXELS, MIME_BY_EXT } from './media.staging.js';
import { loadSharp } from './sharp.js';
import type { MediaStorage } from './storage/storage.js';

/**
 * On-the-fly image variants: `?w=&h=&fit=&format=` on a media URL. Each distinct variant is made
 * once with sharp and kept in the store beside its original (`variants/<project>/<media>/…`), so
 * the next request, on any instance sharing the store, is a plain read; deleting the media deletes
 * them all. Two instances asked for a new variant at once may both make it: the same bytes under the
 * same key, the later put replacing the earlier whole.
 */

export const MAX_VARIANT_SIDE = 4096;
/**
 * Distinct variants kept per image. Variant URLs are public, so without a cap anyone could make the
 * server compute and store every size in 1..4096 x 4 formats; 50 covers srcset widths in a few formats.
 */
export const MAX_VARIANTS_PER_MEDIA = 50;
export const FITS = ['cover', 'contain', 'fill', 'inside', 'outside'] as const;
export const FORMATS = ['webp', 'avif', 'jpeg', 'png'] as const;
export type Fit = (typeof FITS)[number];
export type VariantFormat = (typeof FORMATS)[number];

export interface VariantQuery {
  w?: number;
  h?: number;
  fit?: Fit;
  format?: VariantFormat;
}

/** A validated request for a variant, in canonical form. */
export interface VariantSpec {
  w: number | null;
  h: number | null;
  fit: Fit;
  /** sharp's output format id. */
  format: 'webp' | 'avif' | 'jpeg' | 'png' | 'gif';
  ext: string;
}

const EXT_BY_FORMAT = { webp: 'webp', avif: 'avif', jpeg: 'jpg', png: 'png', gif: 'gif' } as const;
const FORMAT_BY_EXT: Record<string, VariantSpec['format']> = {
  png: 'png',
  jpg: 'jpeg',
  gif: 'gif',
  webp: 'webp',
  avif: 'avif',
};

/**
 * The variant a query asks for, or null for the original. The schema has already bounded every
 * value; this adds the rules between parameters. Without `format` the original's format is kept.
 */
export function variantSpec(query: VariantQuery, originalExt: string): VariantSpec | null {
  const { w, h, fit, format } = query;
  if (w === undefined && h === undefined && fit === undefined && format === undefined) return null;
  if (fit !== undefined && w === undefined && h === undefined) {
    throw validationFailed('`fit` needs `w` or `h`.', [{ path: 'querystring.fit', message: 'needs w or h' }]);
  }
  const out = format ?? FORMAT_BY_EXT[originalExt] ?? 'png';
  return { w: w ?? null, h: h ?? null, fit: fit ?? 'cover', format: out, ext: EXT_BY_FORMAT[out] };
}

/** The store key of a variant: every parameter spelled out, so equal requests share one file. */
export function variantKey(projectId: string, mediaId: string, spec: VariantSpec): string {
  return `variants/${projectId}/${mediaId}/w${spec.w ?? 'auto'}-h${spec.h ?? 'auto'}-${spec.fit}.${spec.ext}`;
}

export const variantsPrefix = (projectId: string, mediaId: string) => `variants/${projectId}/${mediaId}/`;

/**
 * Variants made at once per process, and waiting beyond those; past that `503 unavailable`. One at a
 * time: each can decode up to MAX_DECODED_BYTES, and anyone can ask for new sizes. Twenty parallel
 * hostile requests peaked under 300 MB resident with this (test/faults/variant-memory.test.ts); with
 * sharp's defaults (four at a time, its cache on) five such requests left 880 MB.
 */
const VARIANT_JOBS = { running: 1, waiting: 10, retryAfterSeconds: 2 };

export function createVariantMaker(storage: MediaStorage) {
  // Concurrent first requests for one variant share one computation instead of racing.
  const inFlight = new Map<string, Promise<void>>();
  const limit = createJobLimit(VARIANT_JOBS);

  async function make(originalKey: string, key: string, spec: VariantSpec): Promise<void> {
    const original = await storage.open(originalKey);
    if (!original) throw notFound('Media');
    // Only formats that can hold frames keep them; the rest get the first frame.
    const animated = spec.format === 'gif' || spec.format === 'webp';
    const sharp = await loadSharp();
    const transform = sharp({ animated, limitInputPixels: MAX_INPUT_PIXELS })
      .autoOrient()
      .resize({
        width: spec.w ?? undefined,
        height: spec.h ?? undefined,
        fit: spec.fit,
        // Never upscale: a variant is at most the original's size, which also bounds the work.
        withoutEnlargement: true,
      });
    if (spec.format === 'jpeg') transform.flatten({ background: '#ffffff' });
    transform.toFormat(spec.format);

    const chunks: Buffer[] = [];
    const collect = async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) chunks.push(chunk);
    };
    try {
      await pipeline(original.stream(), transform, collect);
    } catch {
      // Accepted at upload from its header, yet sharp cannot decode it (truncated, corrupt).
      throw unsupportedMediaType('This image cannot be converted.');
    } finally {
      original.close();
    }
    const bytes = Buffer.concat(chunks);

    const staged = storage.stagingPath();
    try {
      await writeFile(staged, bytes, { flag: 'wx' });
    } catch (err) {
      await storage.discard(staged);
      throw err;
    }
    const base = original.meta.filename.replace(/\.[^.]*$/, '');
    await storage.put(key, staged, {
      contentType: MIME_BY_EXT[spec.ext] ?? 'application/octet-stream',
      sha256: createHash('sha256').update(bytes).digest('hex'),
      filename: `${base || 'image'}.${spec.ext}`,
    });
    // The media may have been deleted while we worked; then this variant must not outlive it.
    if (!(await storage.exists(originalKey))) {
      await storage.delete(key);
      throw notFound('Media');
    }
  }

  return {
    /** Makes the variant unless the store already has it. */
    async ensure(originalKey: string, key: string, spec: VariantSpec): Promise<void> {
      const running = inFlight.get(key);
      if (running) return running;
      // Registered before the first await (the count is a listing on S3): requests arriving meanwhile
      // wait for this job instead of each making and uploading the variant.
      const job = (async () => {
        if ((await storage.countPrefix(key.slice(0, key.lastIndexOf('/') + 1))) >= MAX_VARIANTS_PER_MEDIA) {
          throw tooManyVariants();
        }
        await limit.run(() => make(originalKey, key, spec));
      })().finally(() => inFlight.delete(key));
      inFlight.set(key, job);
      return job;
    },
  };
}

export type VariantMaker = ReturnType<typeof createVariantMaker>;

const tooManyVariants = () =>
  validationFailed(
    `This image already has ${MAX_VARIANTS_PER_MEDIA} variants; use one of its existing sizes.`,
    [{ path: 'querystring', message: `at most ${MAX_VARIANTS_PER_MEDIA} distinct variants per image` }],
  );
