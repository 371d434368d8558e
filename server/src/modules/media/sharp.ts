import type Sharp from 'sharp';

let loading: Promise<typeof Sharp> | undefined;

/**
 * sharp (libvips), loaded on first use: it costs start-up time and memory that a server which never
 * sees an image should not pay. Set once, for the whole process: no operation cache (it kept decoded
 * images resident, hundreds of MB after a few large variants) and one libvips thread per image, so
 * the job limit in media.variants.ts bounds the CPU an anonymous URL can take.
 */
export function loadSharp(): Promise<typeof Sharp> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return loading;
}
