import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { bearer, call } from './factories.js';

/** Real image bytes, made by sharp (noise, so they do not compress to nothing). */
export async function makeImage(
  format: 'png' | 'jpeg' | 'gif' | 'webp' | 'avif',
  width = 64,
  height = 48,
): Promise<Buffer> {
  const raw = randomBytes(width * height * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .toFormat(format)
    .toBuffer();
}

export interface FilePart {
  name?: string;
  filename?: string;
  contentType?: string;
  data: Buffer | string;
}

/** A multipart/form-data body and its Content-Type header, built by hand as a browser would send it. */
export function multipart(parts: FilePart[]): { payload: Buffer; contentType: string } {
  const boundary = `----folio${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    // As browsers do (HTML spec): raw UTF-8 in the quoted string, with `"` and line breaks escaped.
    const escaped = part.filename?.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
    const filename = escaped === undefined ? '' : `; filename="${escaped}"`;
    const type = part.contentType ? `\r\nContent-Type: ${part.contentType}` : '';
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name ?? 'file'}"${filename}${type}\r\n\r\n`,
      ),
      Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POST /v1/media/upload with one file part. */
export async function upload(
  app: FastifyInstance,
  token: string | null,
  projectId: string,
  file: Omit<FilePart, 'name'> & { name?: string },
) {
  const body = multipart([{ filename: 'image.png', contentType: 'image/png', ...file }]);
  return call(app, {
    method: 'POST',
    url: '/v1/media/upload',
    headers: {
      ...(token && bearer(token)),
      'x-cms-project-id': projectId,
      'content-type': body.contentType,
    },
    payload: body.payload,
  });
}
