import Type from 'typebox';
import { Strict, Timestamp } from '../../http/schemas.js';
import { ENTRY_ID_FORM } from '../../shared/entry-ids.js';
import { FieldDeclarationDoc } from './field-declaration.schemas.js';
import { LIMITS } from './limits.js';

/** A page path such as "/" or "/blog/hello"; sent URL-encoded in paths ("/" becomes %2F). */
export const PageId = Type.String({
  minLength: 1,
  maxLength: LIMITS.pagePathLength,
  pattern: '^[^\\u0000-\\u001f\\u007f]+$',
  description: `A page path such as "/" (1 to ${LIMITS.pagePathLength} characters, no control characters).`,
  examples: ['/'],
});

/**
 * The page id a sync registers. Its rules (contract §15, §17) are checked by the service
 * (pageIdProblem, src/shared/page-ids.ts), which says what is wrong in words; a schema pattern could
 * only say "must match pattern". Reads keep the looser PageId: pages stored before the rules keep working.
 */
export const SyncPageId = Type.String({
  minLength: 1,
  maxLength: LIMITS.pagePathLength,
  description: `A route of the site ("/", "/blog/hello") or, starting with "@", a shared page ("@site", "@footer": definitions and entries like any page, but no route of the site). 1 to ${LIMITS.pagePathLength} characters; no "?", "#", control character or whitespace other than a space, and not an entry id ("ent_" and 26 base-32 characters). Ids without a leading "/" ("home") are accepted.`,
  examples: ['/', '@site'],
});

export const Key = Type.String({
  minLength: 1,
  maxLength: LIMITS.keyLength,
  pattern: '^[^\\u0000-\\u001f\\u007f]+$',
});

/**
 * A field declaration as the route validates it: `{ key, type }` and any options. What each type and
 * option means is checked by the service (field-declarations.ts), which names every problem with its
 * path and answers an unknown type in one sentence; a union validated here would answer a list of
 * "must be equal to constant" per type instead. The document shows the real shape, the
 * `FieldDeclaration` union by `type` (`x-documented-as`, src/http/openapi-components.ts).
 */
export const FieldDeclaration = Type.Object(
  { key: Key, type: Type.String({ minLength: 1, maxLength: 32 }) },
  { additionalProperties: true, 'x-documented-as': FieldDeclarationDoc },
);

/** A stored declaration in an answer: every option kept (fast-json-stringify would drop unknown ones). */
const StoredDeclaration = Type.Object(
  { key: Type.String(), type: Type.String() },
  { additionalProperties: true, 'x-documented-as': FieldDeclarationDoc },
);

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
    pageId: SyncPageId,
    components: Type.Array(
      Strict({
        componentId: Key,
        instanceKey: Key,
        fields: Type.Array(FieldDeclaration, { maxItems: LIMITS.fieldsPerComponent }),
        entryId: Type.Optional(
          Type.String({
            pattern: ENTRY_ID_FORM.source,
            description:
              "The id the component's entry gets if this sync creates it (`ent_` and 26 base-32 characters, as the server makes them): an import keeps its entries' ids this way. A member's session or a write secret key only (the publishable key: 403). Used only when no entry of any project holds it; otherwise the entry gets a new id, and the answer's `changedIds` lists it, the same whichever project holds it. Ignored where the entry exists.",
            examples: ['ent_01JD3ZK4Q7M2X8V5B6N9C0R1T2'],
          }),
        ),
      }),
      { maxItems: LIMITS.componentsPerSync },
    ),
  },
  { title: 'SyncBody', examples: [{ pageId: '/', components: [componentExample] }] },
);

const Rejected = Type.Array(
  Type.Object({
    instanceKey: Type.String(),
    reason: Type.String({ description: 'What was kept as stored, in one sentence.' }),
  }),
  {
    description:
      'Parts a publishable-key sync in `additive` mode may not change (a componentId, a field type, a removed field), one item per part; they were left as stored. Empty for every other caller and mode.',
  },
);
const rejectedExample = {
  instanceKey: 'hero',
  reason: 'componentId stays "Hero": the publishable key cannot change it to "BigHero".',
};

export const SyncResult = Type.Object(
  {
    pageId: Type.String(),
    components: Type.Integer({ description: 'How many components the request declared.' }),
    created: Type.Array(Type.String(), { description: 'instanceKeys whose stub entry this call created.' }),
    rejected: Rejected,
    changedIds: Type.Optional(
      Type.Array(
        Type.Object({
          instanceKey: Type.String(),
          requested: Type.String({ description: 'The `entryId` sent.' }),
          id: Type.String({ description: "The entry's id." }),
        }),
        {
          description:
            'Only when the sync was sent an `entryId`: the components sent with one whose entry has another id (the id was held by an entry, of this project or another, which the answer does not say; or the entry existed before this sync). Empty when every `entryId` was used.',
        },
      ),
    ),
  },
  {
    title: 'SyncResult',
    examples: [{ pageId: '/', components: 1, created: ['hero'], rejected: [] }],
  },
);

const DefinitionShape = Type.Object({
  componentId: Type.String(),
  fields: Type.Array(StoredDeclaration),
});

export const DryRunResult = Type.Object(
  {
    pageId: Type.String(),
    created: Type.Array(Type.String(), {
      description: 'instanceKeys of new definitions, which would get a stub entry.',
    }),
    changed: Type.Array(
      Type.Object({
        instanceKey: Type.String(),
        from: DefinitionShape,
        to: DefinitionShape,
      }),
      { description: 'Existing definitions the sync would change: as stored, and as they would be.' },
    ),
    rejected: Rejected,
  },
  {
    title: 'DryRunResult',
    description: 'What the sync would do (`?dryRun=true`); nothing was written.',
    examples: [
      {
        pageId: '/',
        created: ['footer'],
        changed: [
          {
            instanceKey: 'hero',
            from: { componentId: 'Hero', fields: [{ key: 'title', type: 'text' }] },
            to: {
              componentId: 'Hero',
              fields: [
                { key: 'title', type: 'text' },
                { key: 'image', type: 'image' },
              ],
            },
          },
        ],
        rejected: [rejectedExample],
      },
    ],
  },
);

export const SyncQuery = Strict({
  dryRun: Type.Boolean({
    default: false,
    description: 'true: answer what the sync would do, and write nothing.',
  }),
});

export const Definition = Type.Object(
  {
    componentId: Type.String(),
    instanceKey: Type.String(),
    fields: Type.Array(StoredDeclaration),
    updatedAt: Timestamp,
  },
  { title: 'Definition', examples: [{ ...componentExample, updatedAt: '2026-11-21T09:30:00.000Z' }] },
);

export const PageParams = Strict({ pageId: PageId });
