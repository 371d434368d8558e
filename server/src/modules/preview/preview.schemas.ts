import Type from 'typebox';
import { Strict, Timestamp } from '../../http/schemas.js';
import { PREVIEW_TTL } from './preview.service.js';

export const CreatePreviewTokenBody = Strict(
  {
    ttlSeconds: Type.Optional(
      Type.Integer({
        minimum: PREVIEW_TTL.min,
        maximum: PREVIEW_TTL.max,
        default: PREVIEW_TTL.default,
        description: `Lifetime in seconds, ${PREVIEW_TTL.min} to ${PREVIEW_TTL.max} (one day); default ${PREVIEW_TTL.default}.`,
      }),
    ),
  },
  { title: 'CreatePreviewTokenBody', examples: [{ ttlSeconds: 3600 }, {}] },
);

export const PreviewToken = Type.Object(
  {
    token: Type.String({
      description:
        'The preview token (`cms_pv_` + 256 random bits). Shown only in this response; only its SHA-256 is stored. Send it as `x-cms-preview` beside the `x-cms-key` of the same project.',
    }),
    expiresAt: Timestamp,
  },
  {
    title: 'PreviewToken',
    examples: [
      {
        token: 'cms_pv_3q2-7wEvT1d0ZlG7nWcC3XqfJ9x5mYbA2kHsP8uL0rE',
        expiresAt: '2026-11-21T10:30:00.000Z',
      },
    ],
  },
);

export const PreviewTokensEnded = Type.Object(
  {
    deleted: Type.Integer({
      minimum: 0,
      description: 'How many of your preview tokens in this project ended (0 when you had none).',
    }),
  },
  { title: 'PreviewTokensEnded', examples: [{ deleted: 2 }] },
);
