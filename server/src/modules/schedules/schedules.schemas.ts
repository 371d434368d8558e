import Type from 'typebox';
import { PublishProblem, Strict, Timestamp } from '../../http/schemas.js';
import { LocaleOrEvery } from '../content/index.js';
import { PageId } from '../definitions/index.js';

const Action = Type.Union([Type.Literal('publish'), Type.Literal('unpublish')], {
  description: '`publish` the working copy as it is at that moment, or `unpublish` (an entry only).',
});
const Status = Type.Union(
  [Type.Literal('pending'), Type.Literal('done'), Type.Literal('failed'), Type.Literal('canceled')],
  { description: '`pending` until it runs (`done` or `failed`) or is canceled.' },
);
const EntryId = Type.String({ minLength: 1, maxLength: 64, examples: ['ent_01JD3ZK4Q7M2X8V5B6N9C0R1T3'] });

const example = {
  id: 'sch_01JD3ZK4Q7M2X8V5B6N9C0R1T2',
  action: 'publish',
  entryId: 'ent_01JD3ZK4Q7M2X8V5B6N9C0R1T3',
  pageId: null,
  at: '2026-12-01T08:00:00.000Z',
  status: 'pending',
  createdBy: { id: 'usr_01JD3ZK4Q7M2X8V5B6N9C0R1T4', email: 'ada@example.com' },
  createdAt: '2026-11-21T09:30:00.000Z',
  executedAt: null,
  error: null,
};

export const CreateScheduleBody = Strict(
  {
    action: Action,
    entryId: Type.Optional(
      Type.Union([EntryId, Type.Null()], { description: 'The entry to publish or unpublish.' }),
    ),
    pageId: Type.Optional(
      Type.Union([PageId, Type.Null()], {
        description:
          'A page: every entry of it that is a draft at that moment is published (as bulk-publish).',
      }),
    ),
    at: Type.String({
      format: 'date-time',
      maxLength: 64,
      description:
        'When to run it: an RFC 3339 date and time with its offset (`Z` or `+02:00`), later than now and at most one year ahead (the same date and time next year). Stored and answered in UTC with milliseconds.',
      examples: ['2026-12-01T08:00:00.000Z'],
    }),
    locale: Type.Optional(LocaleOrEvery),
  },
  {
    title: 'CreateScheduleBody',
    description:
      'Exactly one of `entryId` and `pageId` (a `null` counts as absent); `unpublish` takes only `entryId`.',
    examples: [
      { action: 'publish', entryId: example.entryId, at: example.at },
      { action: 'publish', pageId: '/pricing', at: '2026-12-01T08:00:00+01:00' },
      { action: 'unpublish', entryId: example.entryId, at: '2027-01-06T00:00:00.000Z' },
    ],
  },
);

export const Schedule = Type.Object(
  {
    id: Type.String(),
    action: Action,
    entryId: Type.Union([Type.String(), Type.Null()]),
    pageId: Type.Union([Type.String(), Type.Null()]),
    at: Timestamp,
    status: Status,
    createdBy: Type.Object(
      { id: Type.String(), email: Type.String() },
      { description: 'The member it runs for: history, events and the activity log name them.' },
    ),
    createdAt: Timestamp,
    executedAt: Type.Union([Timestamp, Type.Null()], {
      description: 'When the worker ran it (`done` or `failed`); null while pending and when canceled.',
    }),
    locale: Type.Optional(
      Type.String({
        description:
          'The locale it publishes or unpublishes in (a code, or `*` for every locale); only in a project with locales.',
      }),
    ),
    error: Type.Union([Type.String(), Type.Null()], {
      description:
        'Why it failed (`failed` only), in one sentence: the entry or page was gone, the creator was no longer an editor or admin, or the content broke rules of its definition.',
    }),
    problems: Type.Optional(
      Type.Array(PublishProblem, {
        description:
          'Only when rules refused the publish (`422 unpublishable` at run time): every problem, as the 422 lists them.',
      }),
    ),
  },
  {
    title: 'Schedule',
    examples: [
      example,
      {
        ...example,
        id: 'sch_01JD3ZK4Q7M2X8V5B6N9C0R1T5',
        entryId: null,
        pageId: '/pricing',
        status: 'done',
        executedAt: '2026-12-01T08:00:00.212Z',
      },
    ],
  },
);

export const ScheduleQuery = Strict({
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  status: Type.Optional(Status),
});

export const ScheduleParams = Strict({ id: Type.String({ minLength: 1, maxLength: 64 }) });
