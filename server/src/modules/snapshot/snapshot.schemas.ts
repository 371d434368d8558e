import Type from 'typebox';
import { Strict, Timestamp } from '../../http/schemas.js';

/**
 * The snapshot as the document describes it. The route sends pre-serialised bytes (snapshot.service.ts
 * builds them once per version), so this schema documents the shape; it does not serialise it.
 * The object parts mirror ObjectsSnapshotPart (objects.snapshot.ts).
 */
const Scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

const SnapshotEntry = Type.Object(
  {
    id: Type.String({
      description:
        'The entry id: references (fields of type `reference`) hold it, so a build resolves them itself.',
    }),
    instanceKey: Type.String(),
    componentId: Type.String(),
    fields: Type.Record(Type.String(), Type.Unknown(), { description: 'The published fields.' }),
  },
  { title: 'SnapshotEntry' },
);

const SnapshotObjectField = Type.Object(
  {
    type: Type.String(),
    id: Type.String(),
    path: Type.String({ description: 'Dotted field path, as saved (`seo.title`).' }),
    value: Scalar,
  },
  { title: 'SnapshotObjectField' },
);

const SnapshotObjectCollection = Type.Object(
  {
    type: Type.String(),
    id: Type.String(),
    collection: Type.String(),
    items: Type.Array(
      Type.Object({ itemId: Type.String(), value: Type.Record(Type.String(), Type.Unknown()) }),
      { description: 'In saved order.' },
    ),
  },
  { title: 'SnapshotObjectCollection' },
);

const SnapshotObjectType = Type.Object(
  {
    type: Type.String(),
    fields: Type.Array(Type.String(), { description: 'Field paths of published objects of this type.' }),
    collections: Type.Array(Type.String(), { description: 'Collection names of this type.' }),
  },
  { title: 'SnapshotObjectType' },
);

export const Snapshot = Type.Object(
  {
    schema: Type.Integer({ description: 'Snapshot schema version (1).' }),
    version: Type.String({ description: '"sha256:" + hex SHA-256 of the canonical JSON of the rest.' }),
    generatedAt: Timestamp,
    content: Type.Record(Type.String(), Type.Array(SnapshotEntry), {
      description: 'Page path to its live entries, ordered by instanceKey.',
    }),
    objectFields: Type.Array(SnapshotObjectField, {
      description: 'Published fields, ordered by type, id and path.',
    }),
    objectCollections: Type.Array(SnapshotObjectCollection, {
      description: 'Published collections, ordered by type, id and collection.',
    }),
    objectTypes: Type.Array(SnapshotObjectType, { description: 'Object types, ordered by name.' }),
    bakeEnabled: Type.Boolean(),
    locale: Type.Optional(
      Type.String({
        description:
          "In a project with locales only (contract §17): the locale this snapshot is of (`?locale=`, or the default locale's without it). Absent in a project without locales.",
      }),
    ),
  },
  {
    title: 'Snapshot',
    examples: [
      {
        schema: 1,
        version: 'sha256:6f1ed002ab5595859014ebf0951522d9f6e1a5e9c1e3f5b6a5bb6c2c2e7b5a11',
        generatedAt: '2026-11-21T09:30:00.000Z',
        content: {
          '/': [
            {
              id: 'ent_01JD3ZK4Q7M2X8V5B6N9C0R1T2',
              instanceKey: 'hero',
              componentId: 'Hero',
              fields: { title: 'Hello, world' },
            },
          ],
        },
        objectFields: [{ type: 'product', id: 'sku-1', path: 'title', value: 'Mug' }],
        objectCollections: [
          {
            type: 'product',
            id: 'sku-1',
            collection: 'images',
            items: [{ itemId: 'img-1', value: { url: 'https://cdn.example.com/mug.jpg' } }],
          },
        ],
        objectTypes: [{ type: 'product', fields: ['title'], collections: ['images'] }],
        bakeEnabled: true,
      },
    ],
  },
);

export const SnapshotQuery = Strict({
  locale: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 35,
      description:
        "A project locale code (matched case-insensitively) for that locale's snapshot, or `*` for every locale (schema 2). Default: the default locale's. 400 in a project without locales.",
      examples: ['fr', '*'],
    }),
  ),
});
