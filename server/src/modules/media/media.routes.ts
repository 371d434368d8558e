import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access } from '../../http/access.js';
import { userActorOf } from '../../http/actor.js';
import { projectIdOf } from '../../http/auth.js';
import { pageEnvelope } from '../../http/pagination.js';
import { Deleted, Envelope, errors, PageEnvelope, PageQuery } from '../../http/schemas.js';
import {
  AppError,
  notFound,
  payloadTooLarge,
  unsupportedMediaType,
  validationFailed,
} from '../../shared/errors.js';
import { Media, MediaParams, UploadBody } from './media.schemas.js';
import type { MediaService } from './media.service.js';
import { malformedForm } from './media.staging.js';

const tags = ['Media'];

const UPLOAD_DESCRIPTION = `Multipart form data with one part named \`file\` (other fields are ignored).
The type is decided from the bytes: PNG, JPEG, GIF, WebP and AVIF are accepted; SVG and anything else is
\`415 unsupported_media_type\` whatever the file name or declared type. Over \`CMS_MEDIA_MAX_BYTES\`
(default 10 MiB) the upload is cut off with \`413 payload_too_large\`, as is an image that would take
more than 80 MiB to decode (width × height × frames × channels × bytes per sample: 28 megapixels of
8-bit RGB, 21 of 8-bit RGBA, 10 of 16-bit RGBA) or has more than 40 million pixels. The file is streamed to disk while hashed (SHA-256), never held in memory, and recorded only once
it is in place: a failed upload leaves neither a file nor a record. The stored name is ours
(\`<id>.<ext>\`); the client's file name is kept as \`filename\` (its last path segment) and is sent back in
\`Content-Disposition\`. \`width\`/\`height\` are the displayed size (EXIF orientation applied).
Emits \`media.uploaded\` with the record.`;

/** `/v1/media`: upload, list, delete. Multipart parsing is registered here only (encapsulated). */
export const mediaRoutes =
  (media: MediaService, maxBytes: number): FastifyPluginAsyncTypebox =>
  async (app) => {
    await app.register(multipart, {
      // One file; the few text fields a form may add stay tiny. fileSize is the hard cut-off.
      limits: { fileSize: maxBytes, files: 1, fields: 5, fieldSize: 1024, fieldNameSize: 100, parts: 6 },
    });

    app.post(
      '/upload',
      {
        config: { access: access.editor },
        // The body is read as a stream by the handler; the schema below only documents it.
        validatorCompiler: () => () => true,
        schema: {
          tags,
          operationId: 'uploadMedia',
          summary: 'Upload an image',
          description: UPLOAD_DESCRIPTION,
          consumes: ['multipart/form-data'],
          body: UploadBody,
          response: {
            201: Envelope(Media),
            ...errors(
              validationFailed('The form needs one file part named "file".', [
                { path: 'body.file', message: 'is required' },
              ]),
              payloadTooLarge(`The file is larger than the upload limit of ${maxBytes} bytes.`),
              unsupportedMediaType(
                'Only PNG, JPEG, GIF, WebP and AVIF images are accepted (this file is image/svg+xml).',
              ),
            ),
          },
        },
      },
      async (request, reply) => {
        if (!request.isMultipart()) {
          throw unsupportedMediaType('Send the image as multipart/form-data with a part named "file".');
        }
        const part = await request.file().catch((err: { statusCode?: number }) => {
          // @fastify/multipart's own limits are 4xx already (413); busboy's parse errors (no or
          // over-long boundary, truncated body, bad part headers) are plain Errors: the client's form.
          if (err instanceof AppError || (err.statusCode && err.statusCode < 500)) throw err;
          throw malformedForm();
        });
        if (part?.fieldname !== 'file') {
          throw validationFailed('The form needs one file part named "file".', [
            { path: 'body.file', message: 'is required' },
          ]);
        }
        const record = await media.upload(
          projectIdOf(request),
          {
            stream: part.file,
            filename: part.filename,
          },
          userActorOf(request),
        );
        return reply.code(201).send({ data: record, error: null });
      },
    );

    app.get(
      '/',
      {
        config: { access: access.member },
        schema: {
          tags,
          operationId: 'listMedia',
          summary: "List the project's media, newest first",
          description: 'Cursor-paginated: pass `meta.nextCursor` back as `cursor` for the next page.',
          querystring: PageQuery,
          response: { 200: PageEnvelope(Media), ...errors(400, 401, 403) },
        },
      },
      async (request) => {
        const { limit, cursor } = request.query;
        return pageEnvelope(await media.list(projectIdOf(request), limit, cursor), limit);
      },
    );

    app.delete(
      '/:id',
      {
        config: { access: access.editor },
        schema: {
          tags,
          operationId: 'deleteMedia',
          summary: 'Delete an image',
          description:
            'Removes the record, then the bytes and every variant; from the response on, the URL answers `404`. Emits `media.deleted`.',
          params: MediaParams,
          response: { 200: Deleted, ...errors(400, notFound('Media')) },
        },
      },
      async (request) => {
        await media.remove(projectIdOf(request), request.params.id, userActorOf(request));
        return { data: { id: request.params.id, deleted: true as const }, error: null };
      },
    );
  };
