import Type from 'typebox';
import { Strict, Timestamp } from '../../http/schemas.js';
import { FITS, FORMATS, MAX_VARIANT_SIDE } from './media.variants.js';

const example = {
  id: 'med_01JD3ZK4Q7M2X8V5B6N9C0R1T2',
  filename: 'hero image.png',
  mimeType: 'image/png',
  size: 482113,
  width: 1600,
  height: 900,
  url: 'https://cdn.example.com/media/prj_01JD3ZH0000000000000000000/med_01JD3ZK4Q7M2X8V5B6N9C0R1T2.png',
  createdAt: '2026-11-21T09:30:00.000Z',
};

export const Media = Type.Object(
  {
    id: Type.String({ examples: [example.id] }),
    filename: Type.String({ description: "The client's original file name, kept as data only." }),
    mimeType: Type.String({
      description:
        'image/png, image/jpeg, image/gif, image/webp or image/avif: decided from the bytes, never from the name or the declared type.',
      examples: ['image/png'],
    }),
    size: Type.Integer({ description: 'Bytes.' }),
    width: Type.Integer({ description: 'Displayed width in pixels (EXIF orientation applied).' }),
    height: Type.Integer({ description: 'Displayed height in pixels (EXIF orientation applied).' }),
    url: Type.String({ description: 'Public address of the bytes; add ?w=&h=&fit=&format= for a variant.' }),
    createdAt: Timestamp,
  },
  { title: 'Media', examples: [example] },
);

export const MediaParams = Strict({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/** Documents the multipart body; the handler reads it as a stream (it is not validated as JSON). */
export const UploadBody = Type.Object(
  { file: Type.String({ format: 'binary', description: 'The image (PNG, JPEG, GIF, WebP or AVIF).' }) },
  { required: ['file'] },
);

export const ServeParams = Type.Object({
  projectId: Type.String({ maxLength: 64 }),
  file: Type.String({ maxLength: 64, description: '`<mediaId>.<ext>`, as in the record `url`.' }),
});

const side = (name: string) =>
  Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_VARIANT_SIDE,
      description: `${name} in pixels, at most ${MAX_VARIANT_SIDE}.`,
    }),
  );

export const VariantQuerySchema = Strict({
  w: side('Width'),
  h: side('Height'),
  fit: Type.Optional(
    Type.Union(
      FITS.map((f) => Type.Literal(f)),
      { description: 'How to fit both w and h (sharp semantics); default cover. Needs w or h.' },
    ),
  ),
  format: Type.Optional(
    Type.Union(
      FORMATS.map((f) => Type.Literal(f)),
      { description: "Output format; default the original's." },
    ),
  ),
});

export { example as mediaExample };
