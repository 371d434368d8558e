import Type from 'typebox';
import { Strict, Timestamp } from '../../http/schemas.js';
import { LIMITS } from './objects.limits.js';

const Status = Type.Union([Type.Literal('draft'), Type.Literal('published')]);
const TypeName = Type.String({
  minLength: 1,
  maxLength: LIMITS.typeLength,
  pattern: '^[A-Za-z0-9][A-Za-z0-9_.:-]*$',
  description: 'Object type: letters, digits, `_ . : -`.',
});
// No control characters in names that end up as keys and paths.
const Name = (maxLength: number) =>
  Type.String({ minLength: 1, maxLength, pattern: '^[^\\u0000-\\u001f]+$' });
const Scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);
const ItemValue = Type.Record(Type.String(), Type.Unknown(), {
  description: `Member data of the item (any JSON object, at most ${LIMITS.valueLength} characters as JSON).`,
});

const saveExample = {
  status: 'published',
  objects: [
    {
      type: 'product',
      id: 'sku-1042',
      fields: { title: 'Linen shirt', price: 49.5, inStock: true, seo: { title: 'Linen shirt | Shop' } },
      collections: {
        images: [
          { itemId: 'img-1', value: { url: 'https://cdn.example.com/1.jpg', type: 'image' } },
          { itemId: 'img-2', value: { url: 'https://cdn.example.com/2.jpg', type: 'image' } },
        ],
      },
    },
  ],
};

export const SaveObject = Strict(
  {
    type: TypeName,
    id: Name(LIMITS.idLength),
    fields: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'Scalar fields (string, number, boolean, null); nested plain objects are flattened to dotted paths (`seo.title`). Arrays belong in collections.',
      }),
    ),
    collections: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Array(Strict({ itemId: Name(LIMITS.pathLength), value: ItemValue }), {
          maxItems: LIMITS.itemsPerCollection,
        }),
        {
          maxProperties: LIMITS.collectionsPerObject,
          description:
            'Collection name to its items, in order; a collection sent becomes exactly these items.',
        },
      ),
    ),
    status: Type.Optional(Status),
  },
  { title: 'SaveObject' },
);

export const SaveBody = Strict(
  {
    status: Type.Optional({
      ...Status,
      description: 'Default for objects without their own status; `draft` if absent.',
    }),
    objects: Type.Array(SaveObject, { minItems: 1, maxItems: LIMITS.objectsPerSave }),
  },
  { title: 'SaveBody', examples: [saveExample] },
);

export const SaveResult = Type.Object(
  {
    status: Type.Union([Type.Literal('draft'), Type.Literal('published'), Type.Literal('mixed')], {
      description: '`mixed` when objects of the request carried different statuses.',
    }),
    objects: Type.Integer(),
    fields: Type.Object({ inserted: Type.Integer(), updated: Type.Integer() }),
    items: Type.Object({ inserted: Type.Integer(), updated: Type.Integer(), removed: Type.Integer() }),
  },
  {
    title: 'SaveResult',
    examples: [
      {
        status: 'published',
        objects: 1,
        fields: { inserted: 4, updated: 0 },
        items: { inserted: 2, updated: 0, removed: 0 },
      },
    ],
  },
);

export const ObjectsQuery = Strict({
  types: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: LIMITS.typesPerQuery * (LIMITS.typeLength + 1),
      description: 'Comma-separated object types; all types when absent.',
      examples: ['product,category'],
    }),
  ),
  draft: Type.Boolean({
    default: false,
    description: 'The draft overlay (session or secret key only; 403 with the publishable key).',
  }),
});

export const ObjectView = Type.Object(
  {
    type: Type.String(),
    id: Type.String(),
    fields: Type.Record(Type.String(), Scalar),
    collections: Type.Record(
      Type.String(),
      Type.Array(Type.Object({ itemId: Type.String(), value: Type.Record(Type.String(), Type.Unknown()) })),
    ),
    updatedAt: Timestamp,
  },
  {
    title: 'ObjectRecord',
    examples: [
      {
        type: 'product',
        id: 'sku-1042',
        fields: { inStock: true, price: 49.5, 'seo.title': 'Linen shirt | Shop', title: 'Linen shirt' },
        collections: {
          images: [
            { itemId: 'img-1', value: { url: 'https://cdn.example.com/1.jpg', type: 'image' } },
            { itemId: 'img-2', value: { url: 'https://cdn.example.com/2.jpg', type: 'image' } },
          ],
        },
        updatedAt: '2026-11-21T09:30:00.000Z',
      },
    ],
  },
);
