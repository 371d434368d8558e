import Type from 'typebox';
import { Strict, Timestamp } from '../../http/schemas.js';
import { FIELD_TYPES } from './field-types.js';
import { LIMITS } from './limits.js';

/** A page path such as "/" or "/blog/hello"; sent URL-encoded in paths ("/" becomes %2F). */
export const PageId = Type.String({
  minLength: 1,
  maxLength: LIMITS.pagePathLength,
  pattern: '^[^\\u0000-\\u001f\\u007f]+$',
  description: `A page path such as "/" (1 to ${LIMITS.pagePathLength} characters, no control characters).`,
  examples: ['/'],
});

export const Key = Type.String({
  minLength: 1,
  maxLength: LIMITS.keyLength,
  pattern: '^[^\\u0000-\\u001f\\u007f]+$',
});

export const FieldType = Type.Union(
  FIELD_TYPES.map((t) => Type.Literal(t)),
  { examples: ['text'] },
);

export const FieldDeclaration = Strict({ key: Key, type: FieldType });

const componentExample = {
  componentId: 'Hero',
  instanceKey: 'hero',
  fields: [
    { key: 'title', type: 'text' },
    { key: 'image', type: 'image' },
  ],
};

export const SyncBody = Strict(
  {
    pageId: PageId,
    components: Type.Array(
      Strict({
        componentId: Key,
        instanceKey: Key,
        fields: Type.Array(FieldDeclaration, { maxItems: LIMITS.fieldsPerComponent }),
      }),
      { maxItems: LIMITS.componentsPerSync },
    ),
  },
  { title: 'SyncBody', examples: [{ pageId: '/', components: [componentExample] }] },
);

export const SyncResult = Type.Object(
  {
    pageId: Type.String(),
    components: Type.Integer({ description: 'How many components the request declared.' }),
    created: Type.Array(Type.String(), { description: 'instanceKeys whose stub entry this call created.' }),
  },
  { title: 'SyncResult', examples: [{ pageId: '/', components: 1, created: ['hero'] }] },
);

export const Definition = Type.Object(
  {
    componentId: Type.String(),
    instanceKey: Type.String(),
    fields: Type.Array(Type.Object({ key: Type.String(), type: Type.String() })),
    updatedAt: Timestamp,
  },
  { title: 'Definition', examples: [{ ...componentExample, updatedAt: '2026-11-21T09:30:00.000Z' }] },
);

export const PageParams = Strict({ pageId: PageId });
