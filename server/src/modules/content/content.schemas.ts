import Type from 'typebox';
import { Strict, Timestamp } from '../../http/schemas.js';
import { PageId } from '../definitions/definitions.schemas.js';
import { LIMITS } from '../definitions/limits.js';

const Id = Type.String({ minLength: 1, maxLength: 64 });

const entryExample = {
  id: 'ent_01JD3ZK4Q7M2X8V5B6N9C0R1T2',
  pageId: '/',
  instanceKey: 'hero',
  componentId: 'Hero',
  fields: { title: 'Hello, world', image: 'https://cdn.example.com/hero.webp' },
  status: 'published',
  publishedAt: '2026-11-21T09:30:00.000Z',
  updatedAt: '2026-11-21T09:30:00.000Z',
};

export const Entry = Type.Object(
  {
    id: Type.String(),
    pageId: Type.String(),
    instanceKey: Type.String(),
    componentId: Type.String(),
    fields: Type.Record(Type.String(), Type.Unknown()),
    status: Type.Union([Type.Literal('draft'), Type.Literal('published')]),
    publishedAt: Type.Union([Timestamp, Type.Null()]),
    updatedAt: Timestamp,
  },
  { title: 'Entry', examples: [entryExample] },
);

export const PageParams = Strict({ pageId: PageId });
export const EntryParams = Strict({ entryId: Id });
export const HistoryParams = Strict({ entryId: Id, historyId: Id });

export const UpdateEntryBody = Strict(
  {
    fields: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        maxProperties: LIMITS.fieldsPerEntry,
        description: 'Merged into the working copy; a null value removes that key.',
      }),
    ),
    status: Type.Optional(Type.Union([Type.Literal('draft'), Type.Literal('published')])),
  },
  {
    title: 'UpdateEntryBody',
    minProperties: 1,
    examples: [{ fields: { title: 'Hello, world' }, status: 'published' }, { fields: { subtitle: null } }],
  },
);

export const BulkPublishBody = Strict(
  { pageId: PageId },
  { title: 'BulkPublishBody', examples: [{ pageId: '/' }] },
);

export const BulkPublishResult = Type.Object(
  { pageId: Type.String(), published: Type.Array(Type.String()) },
  { title: 'BulkPublishResult', examples: [{ pageId: '/', published: [entryExample.id] }] },
);

export const HistoryItem = Type.Object(
  {
    id: Type.String(),
    entryId: Type.String(),
    action: Type.Union([Type.Literal('publish'), Type.Literal('unpublish')]),
    fields: Type.Record(Type.String(), Type.Unknown()),
    actor: Type.Object({ id: Type.String(), email: Type.String() }),
    at: Timestamp,
  },
  {
    title: 'HistoryItem',
    examples: [
      {
        id: 'his_01JD3ZK4Q7M2X8V5B6N9C0R1T3',
        entryId: entryExample.id,
        action: 'publish',
        fields: entryExample.fields,
        actor: { id: 'usr_01JD3ZK4Q7M2X8V5B6N9C0R1T4', email: 'grace@example.com' },
        at: '2026-11-21T09:30:00.000Z',
      },
    ],
  },
);
