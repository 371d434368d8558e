import Type from 'typebox';
import { Strict, Timestamp } from '../../http/schemas.js';
import { attemptOutcomeProperties } from '../../jobs/attempts.schemas.js';

export const Deploy = Type.Object(
  {
    id: Type.String({ description: 'Also the `webhook-id` of a signed generic call.' }),
    hookId: Type.String(),
    hookType: Type.String(),
    reasons: Type.Array(Type.String(), { description: 'The publish event types that caused the deploy.' }),
    requestedAt: Timestamp,
    ...attemptOutcomeProperties,
  },
  {
    title: 'Deploy',
    examples: [
      {
        id: 'dpl_01JD3ZM0000000000000000000',
        hookId: 'netlify',
        hookType: 'generic',
        reasons: ['content.published'],
        status: 'succeeded',
        responseCode: 200,
        attemptCount: 1,
        lastAttemptAt: '2026-11-21T09:30:11.020Z',
        nextAttemptAt: null,
        durationMs: 240,
        error: null,
        responseBody: '{}',
        requestedAt: '2026-11-21T09:30:11.000Z',
        createdAt: '2026-11-21T09:30:11.000Z',
      },
    ],
  },
);

export const DeploysParams = Strict({ id: Type.String({ minLength: 1, maxLength: 64 }) });
