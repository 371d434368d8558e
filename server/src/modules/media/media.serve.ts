import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches } from '../../http/etag.js';
import { errors } from '../../http/schemas.js';
import { notFound, unavailable, unsupportedMediaType, validationFailed } from '../../shared/errors.js';
import { contentDisposition, parseRange } from './media.http.js';
import { ServeParams, VariantQuerySchema } from './media.schemas.js';
import { originalKey } from './media.service.js';
import { type VariantMaker, variantKey, variantSpec } from './media.variants.js';
import type { MediaStorage, StoredObject } from './storage/storage.js';

const PROJECT = /^prj_[0-9A-Z]{26}$/;
const FILE = /^(med_[0-9A-Z]{26})\.(png|jpg|gif|webp|avif)$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The image itself, for the reference (stream payloads are never serialised against it). */
const Bytes = { type: 'string', format: 'binary', examples: ['<the image bytes, e.g. \\x89PNG…>'] };

const SERVE_DESCRIPTION = `Public, no credential: the address in a media record's \`url\` (under the
project's \`cdnUrl\` when set, which should pull from this path). Not enveloped: the body is the image.
Headers: the stored \`Content-Type\`, \`X-Content-Type-Options: nosniff\`,
\`Cache-Control: ${IMMUTABLE}\` (a URL's bytes never change), \`ETag\` = the SHA-256 of the bytes
(\`304\` on \`If-None-Match\`), \`Accept-Ranges: bytes\` (one range per request: \`206\`, \`416\` when
unsatisfiable; \`If-Range\` honoured), \`Content-Disposition: inline\` with the original file name (RFC 6266),
\`Content-Security-Policy: default-src 'none'; sandbox\`.

Variants: \`w\` and/or \`h\` (1–4096), \`fit\` (cover, contain, fill, inside, outside; needs w or h;
default cover), \`format\` (webp, avif, jpeg, png; default the original's). Images are never enlarged and
EXIF orientation is applied. Each variant is made once, kept in the media store (the local directory or the
S3 bucket every instance shares) and then served like the original. An
image keeps at most 50 distinct variants: a new one past that is \`400\` (existing ones keep being served).
New variants are made one at a time per server with a short queue; when it is full the answer is
\`503 unavailable\` with \`Retry-After\` (try again: nothing is lost), as it is when an S3 media store does
not answer. Any
other parameter or value is \`400\`. Answers are served from the media store without a database query;
an unknown or deleted file is \`404\`.`;

/** The public file route, outside /v1 (no envelope, no auth): `GET /media/:projectId/:file`. */
export const mediaServeRoutes =
  (storage: MediaStorage, variants: VariantMaker): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/media/:projectId/:file',
      {
        schema: {
          tags: ['Media'],
          operationId: 'serveMedia',
          summary: 'Serve an image (or a variant of it)',
          description: SERVE_DESCRIPTION,
          params: ServeParams,
          querystring: VariantQuerySchema,
          response: {
            200: {
              description: 'The bytes',
              content: { 'image/*': { schema: Bytes } },
            },
            206: {
              description: 'The requested byte range',
              content: { 'image/*': { schema: Bytes } },
            },
            304: { description: 'Not modified (If-None-Match matched)', type: 'null' },
            416: { description: 'Range not satisfiable; `Content-Range: bytes */<size>`', type: 'null' },
            ...errors(
              validationFailed('`fit` needs `w` or `h`.', [
                { path: 'querystring.fit', message: 'needs w or h' },
              ]),
              notFound('Media'),
              unsupportedMediaType('This image cannot be converted.'),
              unavailable(2, 'Too many images are being processed. Try again.'),
            ),
          },
        },
      },
      async (request, reply) => {
        const { projectId, file } = request.params;
        const match = FILE.exec(file);
        if (!PROJECT.test(projectId) || !match) throw notFound('Media');
        const [, mediaId = '', ext = ''] = match;
        const original = originalKey(projectId, mediaId, ext);
        const spec = variantSpec(request.query, ext);
        if (!spec) return send(request, reply, await found(storage.open(original)));

        // A variant file could outlive its original for a moment (crash mid-delete): ask the original.
        if (!(await storage.exists(original))) throw notFound('Media');
        const key = variantKey(projectId, mediaId, spec);
        let object = await storage.open(key);
        if (!object) {
          await variants.ensure(original, key, spec);
          object = await found(storage.open(key));
        }
        return send(request, reply, object);
      },
    );
  };

async function found(object: Promise<StoredObject | null>): Promise<StoredObject> {
  const value = await object;
  if (!value) throw notFound('Media');
  return value;
}

function send(request: FastifyRequest, reply: FastifyReply, object: StoredObject) {
  const etag = `"${object.meta.sha256}"`;
  reply.headers({
    'content-type': object.meta.contentType,
    'x-content-type-options': 'nosniff',
    'cache-control': IMMUTABLE,
    etag,
    'accept-ranges': 'bytes',
    'content-disposition': contentDisposition(object.meta.filename),
    'content-security-policy': "default-src 'none'; sandbox",
    'cross-origin-resource-policy': 'cross-origin',
  });
  if (etagMatches(request.headers['if-none-match'], etag)) {
    object.close();
    return reply.code(304).send();
  }
  const ifRange = request.headers['if-range'];
  const range = ifRange && ifRange !== etag ? undefined : parseRange(request.headers.range, object.size);
  if (range === 'unsatisfiable') {
    object.close();
    reply.removeHeader('content-type');
    return reply.code(416).header('content-range', `bytes */${object.size}`).send();
  }
  const length = range ? range.end - range.start + 1 : object.size;
  reply.header('content-length', String(length));
  if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${object.size}`);
  if (request.method === 'HEAD') {
    object.close();
    return reply.send(Readable.from([]));
  }
  return reply.send(object.bytes ? object.bytes(range) : object.stream(range));
}
