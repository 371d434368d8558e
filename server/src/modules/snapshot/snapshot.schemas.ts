import Type from 'typebox';
import { Timestamp } from '../../http/schemas.js';

export const Snapshot = Type.Object(
  {
    schema: Type.Integer({ description: 'Snapshot schema version (1).' }),
    version: Type.String({ description: '"sha256:" + hex SHA-256 of the canonical JSON of the rest.' }),
    generatedAt: Timestamp,
    content: Type.Record(
      Type.String(),
      Type.Array(
        Type.Object({
          instanceKey: Type.String(),
          componentId: Type.String(),
          fields: Type.Record(Type.String(), Type.Unknown()),
        }),
      ),
    ),
    objectFields: Type.Array(Type.Unknown()),
    objectCollections: Type.Array(Type.Unknown()),
    objectTypes: Type.Array(Type.Unknown()),
    bakeEnabled: Type.Boolean(),
  },
  {
    examples: [
      {
        schema: 1,
        version: 'sha256:6f1ed002ab5595859014ebf0951522d9f6e1a5e9c1e3f5b6a5bb6c2c2e7b5a11',
        generatedAt: '2026-11-21T09:30:00.000Z',
        content: { '/': [{ instanceKey: 'hero', componentId: 'Hero', fields: { title: 'Hello, world' } }] },
        objectFields: [{ type: 'product', id: 'sku-1', path: 'title', value: 'Mug' }],
        objectCollections: [],
        objectTypes: [{ type: 'product', fields: ['title'], collections: [] }],
        bakeEnabled: true,
      },
    ],
  },
);
