import Type, { type TSchema } from 'typebox';
import { FIELD_TYPES } from './field-types.js';

/**
 * The field declarations and value shapes of contract §13 as named schemas of the API document (a
 * `FieldDeclaration` union by `type`), for readers and the generated client. The server does not
 * validate with these: field-types.ts does, with a path and one sentence per problem; the route
 * schemas point here through `x-documented-as` (src/http/openapi-components.ts).
 */

/**
 * A declaration inside a container: the same variants as `FieldDeclaration`, documented loosely one
 * level down. A `$ref` back to the union would make the document recursive, which readers that
 * expand references (and this repository's document test) cannot follow.
 */
const NestedFieldDeclaration = Type.Object(
  {
    key: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]{0,127}$' }),
    type: Type.Union(FIELD_TYPES.map((t) => Type.Literal(t))),
  },
  {
    title: 'NestedFieldDeclaration',
    additionalProperties: true,
    description:
      'A field declared inside an `object`, a `list` or a block: any `FieldDeclaration` variant (its options as there; no `localized`). Containers nest at most 5 deep.',
  },
);
const Declarations = Type.Array(NestedFieldDeclaration, {
  description:
    'Declarations of the nested fields; keys match [A-Za-z][A-Za-z0-9_]* and never start with "_".',
});

const common = {
  key: Type.String({
    minLength: 1,
    maxLength: 128,
    description: 'The field key (unique among its siblings).',
  }),
  label: Type.Optional(
    Type.String({ maxLength: 100, description: 'Shown to editors instead of the key (plain text).' }),
  ),
  help: Type.Optional(Type.String({ maxLength: 500, description: 'Help shown to editors (plain text).' })),
  required: Type.Optional(
    Type.Boolean({ description: 'Rule: publishing needs a value ("" and a missing value are none).' }),
  ),
  localized: Type.Optional(
    Type.Boolean({
      description:
        "Languages (contract §14, §17). Top-level fields only: a nested `localized` is 400. In a project with `locales`, a localized field has a value per locale: `PATCH ?locale=L` writes L's own value (`null` removes it, and L then reads through its fallback), reads in L take it from the first locale of L's fallback chain that has one (an editor's read lists those in `fallbacks`), and a publish in L copies L's own value. Any other field, and an undeclared top-level key, has one value shared by every locale. Its `default` goes to the default locale only. A member's sync may flip it (the publishable key in `additive` mode may not: listed in `rejected`); values are kept: true → false makes the default locale's value the shared one, false → true makes the shared value the default locale's, and other locales' values are hidden, not deleted, until it flips back. In a project without locales it changes nothing.",
    }),
  ),
};

const ENTRY_ID = '^ent_[0-9A-HJKMNP-TV-Z]{26}$';

export const TextPattern = Type.Object(
  {
    source: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'RE2 syntax; matched as ^(?:source)$, no flags.',
    }),
    message: Type.Optional(
      Type.String({ maxLength: 500, description: 'Shown when the value does not match.' }),
    ),
  },
  { title: 'TextPattern', additionalProperties: false },
);
export const SelectOption = Type.Object(
  {
    value: Type.String({ minLength: 1, maxLength: 200 }),
    label: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { title: 'SelectOption', additionalProperties: false },
);
export const LinkValue = Type.Union(
  [
    Type.Object(
      { pageId: Type.String({ description: 'A page of this project (not a shared "@" page).' }) },
      { additionalProperties: false },
    ),
    Type.Object(
      { href: Type.String({ description: 'http(s), mailto or tel URL, or "/path", "#anchor".' }) },
      { additionalProperties: false },
    ),
  ],
  { title: 'LinkValue', examples: [{ pageId: '/pricing' }] },
);
const ItemKey = Type.String({
  pattern: '^[A-Za-z0-9_-]{1,64}$',
  description: 'Distinct in its array, kept across edits; given (12 random [A-Za-z0-9]) when left out.',
});
export const ListItem = Type.Object(
  { _key: ItemKey },
  {
    title: 'ListItem',
    additionalProperties: true,
    description: 'One item of a `list` value: its declared fields and `_key`; any other key is a 400.',
    examples: [{ _key: 'k7Qw2mZp0aLx', title: 'Fast', icon: 'bolt' }],
  },
);
export const BlockItem = Type.Object(
  { _key: ItemKey, _type: Type.String({ description: "One of the field's `blocks[].componentId`." }) },
  {
    title: 'BlockItem',
    additionalProperties: true,
    description: "One item of a `blocks` value: `_key`, `_type` and that block's declared fields.",
    examples: [{ _key: 'b1', _type: 'Quote', text: 'Folio saved us a week.' }],
  },
);
export const BlockDeclaration = Type.Object(
  {
    componentId: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_-]{0,127}$' }),
    label: Type.Optional(Type.String({ maxLength: 100 })),
    fields: Declarations,
  },
  { title: 'BlockDeclaration', additionalProperties: false },
);

const Count = (max: number, description: string) =>
  Type.Optional(Type.Integer({ minimum: 0, maximum: max, description }));
const DateValue = Type.String({ format: 'date', description: 'YYYY-MM-DD, a real calendar date.' });

function declaration(title: string, type: string, options: Record<string, TSchema>, value?: TSchema) {
  return Type.Object(
    {
      ...common,
      type: Type.Literal(type),
      ...options,
      ...(value ? { default: Type.Optional(value) } : {}),
    },
    { title, additionalProperties: false },
  );
}

const VARIANTS = [
  declaration(
    'TextField',
    'text',
    {
      minLength: Count(100000, 'Rule (code points).'),
      maxLength: Count(100000, 'Rule (code points).'),
      pattern: Type.Optional(TextPattern),
      multiline: Type.Optional(Type.Boolean({ description: 'Editor hint.' })),
    },
    Type.String(),
  ),
  declaration(
    'RichtextField',
    'richtext',
    { maxLength: Count(1000000, 'Rule: characters of text, tags not counted.') },
    Type.Unknown(),
  ),
  declaration(
    'NumberField',
    'number',
    {
      min: Type.Optional(Type.Number({ description: 'Rule.' })),
      max: Type.Optional(Type.Number({ description: 'Rule.' })),
      integer: Type.Optional(Type.Boolean({ description: 'Rule: a whole number.' })),
    },
    Type.Number(),
  ),
  declaration('BooleanField', 'boolean', {}, Type.Boolean()),
  declaration(
    'SelectField',
    'select',
    {
      options: Type.Array(SelectOption, { minItems: 1, maxItems: 200 }),
      multiple: Type.Optional(Type.Boolean({ description: 'The value is an array of distinct values.' })),
      min: Count(200, 'Rule, with multiple: values selected.'),
      max: Count(200, 'Rule, with multiple: values selected.'),
    },
    Type.Union([Type.String(), Type.Array(Type.String())]),
  ),
  declaration(
    'DateField',
    'date',
    { min: Type.Optional(DateValue), max: Type.Optional(DateValue) },
    DateValue,
  ),
  declaration('DatetimeField', 'datetime', {}, Type.String({ format: 'date-time' })),
  declaration(
    'ColorField',
    'color',
    {},
    Type.String({ pattern: '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$' }),
  ),
  declaration('ImageField', 'image', {}, Type.Unknown()),
  declaration('UrlField', 'url', {}, Type.String()),
  declaration('JsonField', 'json', {}, Type.Unknown()),
  declaration('LinkField', 'link', {}),
  declaration('ReferenceField', 'reference', {
    componentIds: Type.Optional(
      Type.Array(Type.String(), { maxItems: 50, description: 'Allowed kinds of entry.' }),
    ),
    multiple: Type.Optional(Type.Boolean({ description: 'The value is an array of distinct entry ids.' })),
    min: Count(100, 'Rule, with multiple.'),
    max: Count(100, 'Rule, with multiple.'),
  }),
  declaration('ObjectField', 'object', { fields: Declarations }, Type.Record(Type.String(), Type.Unknown())),
  declaration(
    'ListField',
    'list',
    { fields: Declarations, min: Count(1000, 'Rule: items.'), max: Count(1000, 'Rule: items.') },
    Type.Array(ListItem, { maxItems: 1000 }),
  ),
  declaration(
    'BlocksField',
    'blocks',
    {
      blocks: Type.Array(BlockDeclaration, { minItems: 1, maxItems: 50 }),
      min: Count(1000, 'Rule: blocks.'),
      max: Count(1000, 'Rule: blocks.'),
    },
    Type.Array(BlockItem, { maxItems: 1000 }),
  ),
];

/** The union the document names `FieldDeclaration`, told apart by `type`. */
export const FieldDeclarationDoc = Type.Union(VARIANTS, {
  title: 'FieldDeclaration',
  discriminator: {
    propertyName: 'type',
    mapping: Object.fromEntries(
      VARIANTS.map((v) => [
        (v.properties.type as { const: string }).const,
        `#/components/schemas/${(v as { title?: string }).title}`,
      ]),
    ),
  },
  examples: [
    { key: 'headline', type: 'text', required: true, maxLength: 60 },
    { key: 'features', type: 'list', fields: [{ key: 'title', type: 'text', required: true }] },
  ],
});

/** A reference value (documented): an entry id, or distinct ids with `multiple`. */
export const ReferenceValue = Type.Union(
  [Type.String({ pattern: ENTRY_ID }), Type.Array(Type.String({ pattern: ENTRY_ID }))],
  {
    title: 'ReferenceValue',
  },
);

/** A reference as a visitor or a preview reads it (contract §13): the entry as that reader sees it. */
export const ResolvedReference = Type.Object(
  {
    id: Type.String({ description: 'The entry id.' }),
    pageId: Type.Optional(Type.String()),
    instanceKey: Type.Optional(Type.String()),
    componentId: Type.Optional(Type.String()),
    fields: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'The entry’s fields as this reader sees them, its own references resolved in turn.',
      }),
    ),
  },
  {
    title: 'ResolvedReference',
    description:
      'In place of an entry id, on visitor reads, preview reads and live streams: `{ id, pageId, instanceKey, componentId, fields }` of the entry (the visitor: its published copy; preview: its working copy), resolved down to `?depth=` levels. Past that depth, on a cycle, or past the 1,000 entries one answer resolves, `{ id }` alone. A reference whose entry the reader cannot see (never published, unpublished, deleted) is `null` in a single reference and left out of a multiple one.',
    examples: [
      {
        id: 'ent_01JD3ZK4Q7M2X8V5B6N9C0R1T3',
        pageId: '@site',
        instanceKey: 'quote-ada',
        componentId: 'Testimonial',
        fields: { quote: 'Folio let us ship in a week.', author: 'Ada' },
      },
    ],
  },
);

/**
 * An entry's `fields` as documented: each value one of the shapes of §13 (named for readers and
 * generators), or any JSON for an undeclared key or a `json` field, so clients keep `unknown`.
 */
export const FieldValuesDoc = Type.Record(
  Type.String(),
  Type.Union(
    [
      LinkValue,
      ReferenceValue,
      ResolvedReference,
      Type.Array(ResolvedReference),
      Type.Array(ListItem),
      Type.Array(BlockItem),
      Type.Unknown({ description: 'Any other JSON value: its declaration (or none) decides.' }),
    ],
    { title: 'FieldValue' },
  ),
  {
    description:
      'The values by field key. Declared keys take the shape of their type (contract §13: a `link` is a LinkValue, a `reference` a ReferenceValue as stored, a ResolvedReference (an array of them) on visitor and preview reads and with `?resolve=true`, a `list` ListItems, `blocks` BlockItems, …); undeclared top-level keys any JSON.',
  },
);
