import Type from 'typebox';
import { Timestamp } from '../http/schemas.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

/** The schema of `attemptOutcome` (attempts.ts): shared by webhook deliveries and deploy calls. */
export const attemptOutcomeProperties = {
  status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
  responseCode: Type.Union([Type.Integer(), Type.Null()]),
  attemptCount: Type.Integer(),
  lastAttemptAt: Nullable(Timestamp),
  nextAttemptAt: Nullable(Timestamp),
  durationMs: Type.Union([Type.Integer(), Type.Null()]),
  error: Nullable(Type.String()),
  responseBody: Nullable(
    Type.String({ description: 'The first 1024 bytes of the last answer (truncated), for debugging.' }),
  ),
  createdAt: Timestamp,
};
