import Type from 'typebox';
import { Strict, Timestamp } from '../../http/schemas.js';
import { LIMITS } from '../definitions/index.js';

/** Entries per answer of GET /v1/entries: a picker's screenful by default, 100 at most. */
export const ENTRIES_PER_SEARCH = { default: 20, max: 100 } as const;
/** The longest `q`: more than anything an editor types into a search box. */
export const SEARCH_TEXT_MAX = 200;

const Key = Type.String({ minLength: 1, maxLength: LIMITS.keyLength });

export const EntrySearchQuery = Strict({
  q: Type.Optional(
    Type.String({
      maxLength: SEARCH_TEXT_MAX,
      description:
        'Text an editor typed: keeps the entries whose page id or instance key contains it, compared case-insensitively ("blog" finds every entry of "/Blog/hello", and "hero" an instance "hero-2"; the component is `componentId`\'s filter). Empty: no filter.',
      examples: ['about'],
    }),
  ),
  pageId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: LIMITS.pagePathLength,
      description: 'Only the entries of this page (exact page id).',
      examples: ['@site'],
    }),
  ),
  componentId: Type.Optional(
    Type.Array(Key, {
      maxItems: 50,
      description:
        "Only entries of these components (repeat the parameter for several: a reference field's `componentIds`).",
    }),
  ),
  ids: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      maxItems: ENTRIES_PER_SEARCH.max,
      description:
        'Only these entries (repeat the parameter, at most 100): how a picker names the entries already chosen. An id that is no entry of the project is left out.',
    }),
  ),
  limit: Type.Integer({
    minimum: 1,
    maximum: ENTRIES_PER_SEARCH.max,
    default: ENTRIES_PER_SEARCH.default,
    description: `Entries per answer (1 to ${ENTRIES_PER_SEARCH.max}, default ${ENTRIES_PER_SEARCH.default}).`,
  }),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      // base64url of a JSON pair of a page id and an instance key, each up to 4 UTF-8 bytes a character.
      maxLength: 4096,
      description: '`meta.nextCursor` of the previous answer (opaque), with the same filters as that answer.',
    }),
  ),
});

export const EntrySummary = Type.Object(
  {
    id: Type.String(),
    pageId: Type.String(),
    instanceKey: Type.String(),
    componentId: Type.String(),
    title: Type.Union([Type.String(), Type.Null()], {
      description:
        "The first non-blank top-level text value of the working copy (fields in the stored order, keys by code units), at most 80 characters; null when there is none among its first 4,096 characters. A picker's line, not a declared title.",
    }),
    status: Type.Union([Type.Literal('draft'), Type.Literal('published')], {
      description:
        'As on an editor read: "published" while the working copy equals the published copy (in a project with locales, the default locale\'s copies).',
    }),
    publishedAt: Type.Union([Timestamp, Type.Null()]),
    updatedAt: Timestamp,
  },
  {
    description: 'An entry as a picker names it: where it is and what it is, without its fields.',
    examples: [
      {
        id: 'ent_01JD3ZK4Q7M2X8V5B6N9C0R1T2',
        pageId: '/about',
        instanceKey: 'team',
        componentId: 'TeamList',
        title: 'Our team',
        status: 'published',
        publishedAt: '2026-11-20T09:30:00.000Z',
        updatedAt: '2026-11-20T09:30:00.000Z',
      },
    ],
  },
);
