import Type from 'typebox';
import { Timestamp } from '../../http/schemas.js';
import { ACTIVITY_ACTIONS, type ActivityAction } from '../../outbox/index.js';

const Action = Type.Unsafe<ActivityAction>({
  type: 'string',
  enum: [...ACTIVITY_ACTIONS],
  description: 'What was done (contract §8).',
});

const UserActor = Type.Object(
  { type: Type.Literal('user'), id: Type.String(), email: Type.String() },
  { title: 'UserActor', description: 'A member, signed in.' },
);
const ApiKeyActor = Type.Object(
  { type: Type.Literal('apiKey'), id: Type.String(), name: Type.String() },
  { title: 'ApiKeyActor', description: 'A secret API key (its name at that moment).' },
);
const SiteActor = Type.Object(
  { type: Type.Literal('site') },
  { title: 'SiteActor', description: "The site, through the project's publishable key (definitions sync)." },
);
const SystemActor = Type.Object(
  {
    type: Type.Literal('system'),
    onBehalfOf: Type.Object({ id: Type.String(), email: Type.String() }),
  },
  { title: 'SystemActor', description: 'Scheduled work, done for the member who scheduled it.' },
);

export const ActivityItem = Type.Object(
  {
    id: Type.String({ examples: ['act_01JD3ZK4Q7M2X8V5B6N9C0R1T2'] }),
    at: Timestamp,
    actor: Type.Union([UserActor, ApiKeyActor, SiteActor, SystemActor]),
    action: Action,
    target: Type.Object({
      type: Type.String({
        description:
          '`project`, `user`, `apiKey`, `webhook`, `page`, `entry`, `object`, `media` or `schedule`.',
      }),
      id: Type.String({
        description: "The resource's id; for a page its `pageId`, for an object `type/id`.",
      }),
    }),
    summary: Type.String({ description: 'One human sentence.' }),
    locale: Type.Optional(
      Type.String({
        description:
          'The locale the change was made in (contract §14); absent when it concerns no one locale, and in a project without locales.',
      }),
    ),
  },
  {
    title: 'ActivityRecord',
    examples: [
      {
        id: 'act_01JD3ZK4Q7M2X8V5B6N9C0R1T2',
        at: '2026-11-21T09:30:00.000Z',
        actor: { type: 'user', id: 'usr_01JD3ZK4Q7M2X8V5B6N9C0R1T2', email: 'ada@example.com' },
        action: 'entry.published',
        target: { type: 'entry', id: 'ent_01JD3ZK4Q7M2X8V5B6N9C0R1T3' },
        summary: 'ada@example.com published hero (Hero) on /home.',
      },
    ],
  },
);

export const ActivityQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    action: Type.Optional(Action),
    targetId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 512, description: 'Only records about this resource.' }),
    ),
    actorId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          "Only records by this user or API key (a member's id also finds the scheduled work done on their behalf).",
      }),
    ),
  },
  { additionalProperties: false },
);
