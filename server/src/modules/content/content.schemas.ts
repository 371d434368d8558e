import Type from 'typebox';
import { EntryProblem, Strict, Timestamp } from '../../http/schemas.js';
import { FieldValuesDoc, LIMITS, PageId } from '../definitions/index.js';

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
  version: 3,
};

export const Entry = Type.Object(
  {
    id: Type.String(),
    pageId: Type.String(),
    instanceKey: Type.String(),
    componentId: Type.String(),
    fields: Type.Record(Type.String(), Type.Unknown(), { 'x-documented-as': FieldValuesDoc }),
    status: Type.Union([Type.Literal('draft'), Type.Literal('published')]),
    publishedAt: Type.Union([Timestamp, Type.Null()]),
    updatedAt: Timestamp,
    version: Type.Integer({
      minimum: 1,
      description:
        'Starts at 1 and grows by one on every change to the entry (edit, publish, unpublish, restore). Send it back as `If-Match: "<version>"` to edit only what you saw. Visitors see the version their published copy was made at.',
    }),
    problems: Type.Optional(
      Type.Array(EntryProblem, {
        description:
          "Editor reads only (a member's session, and the answers of PATCH, restore and unpublish): what would stop this entry's publish now, from the rules of its definition; `[]` when nothing would. In a project with locales, in every locale of the project whichever is read (contract §13), each problem carrying its `locale`, the locales in the project's order. Visitors never get it.",
      }),
    ),
    locale: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description:
          "The locale read (contract §14); `status`, `publishedAt` and `version` are that locale's. Absent in a project without locales, whose answers stay byte for byte as they were.",
      }),
    ),
    locales: Type.Optional(
      Type.Union(
        [
          Type.Record(
            Type.String(),
            Type.Object({
              status: Type.Union([Type.Literal('draft'), Type.Literal('published')]),
              publishedAt: Type.Union([Timestamp, Type.Null()]),
              version: Type.Optional(
                Type.Integer({
                  minimum: 1,
                  description:
                    "A member's read (contract §17): the entry's version in that locale, what `If-Match` on a `?locale=` write of it compares (the default locale's is the entry's own `version`; a shared value's change moves every locale's). Visitors' `locales` leave it out.",
                }),
              ),
            }),
          ),
          Type.Null(),
        ],
        {
          description:
            "A member's read: each locale of the project with this entry's status in it (`published` while its published copy is what a publish in it would make now) and its `version`. A visitor's: the locales of the read's chain in which the entry has a published copy. Absent in a project without locales.",
        },
      ),
    ),
    fallbacks: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description:
          "Editor reads in a project with locales: for each field whose value came from another locale of the chain (not translated yet), that locale's code; `{}` when none. Absent in a project without locales.",
      }),
    ),
  },
  { title: 'Entry', examples: [entryExample] },
);

export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      pattern: '^"[0-9]{1,15}"$',
      description:
        'The entry `version` you last read, quoted (`"3"`). If the entry has changed since, nothing is written and the answer is 412 `precondition_failed` with `details.currentVersion`. Anything but a quoted integer is 400. Without it the last write wins.',
      examples: ['"3"'],
    }),
  ),
});

/** The version an `If-Match` header names (already checked by IfMatchHeaders), or undefined. */
export const ifMatchVersion = (headers: { 'if-match'?: string }): number | undefined =>
  headers['if-match'] === undefined ? undefined : Number(headers['if-match'].slice(1, -1));

export const PageParams = Strict({ pageId: PageId });
export const EntryParams = Strict({ entryId: Id });
export const HistoryParams = Strict({ entryId: Id, historyId: Id });

export const UpdateEntryBody = Strict(
  {
    fields: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        maxProperties: LIMITS.fieldsPerEntry,
        description: 'Merged into the working copy; a null value removes that key.',
        'x-documented-as': {
          ...FieldValuesDoc,
          maxProperties: LIMITS.fieldsPerEntry,
          description:
            'Merged into the working copy (top-level keys only: a sent object, list or blocks replaces the stored one); a null value removes that key.',
        },
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

/** `locale` in a body: a code, or `*` for every locale (bulk-publish, schedules; contract §14, §17). */
export const LocaleOrEvery = Type.String({
  minLength: 1,
  maxLength: 35,
  description:
    "The locale to act in: one of the project's codes (matched case-insensitively) or `*` for every locale, in one transaction. Default: the project's default locale. 400 at `body.locale` for a code the project lacks, and for any `locale` in a project without locales.",
  examples: ['fr', '*'],
});

/** `?locale=` of a write that may act in every locale at once (unpublish). */
export const WriteLocaleQuery = Strict({ locale: Type.Optional(LocaleOrEvery) });

export const BulkPublishBody = Strict(
  { pageId: PageId, locale: Type.Optional(LocaleOrEvery) },
  { title: 'BulkPublishBody', examples: [{ pageId: '/' }] },
);

export const BulkPublishResult = Type.Object(
  {
    pageId: Type.String(),
    published: Type.Array(Type.String()),
    locales: Type.Optional(
      Type.Array(Type.String(), {
        description:
          'The locales the publish acted in (every locale for `*`); only in a project with locales.',
      }),
    ),
  },
  { title: 'BulkPublishResult', examples: [{ pageId: '/', published: [entryExample.id] }] },
);

export const HistoryItem = Type.Object(
  {
    id: Type.String(),
    entryId: Type.String(),
    action: Type.Union([Type.Literal('publish'), Type.Literal('unpublish'), Type.Literal('saved')], {
      description:
        '`publish` and `unpublish` record those changes; `saved` is a working copy that a restore replaced while no other record held it (its `actor` is the one who restored).',
    }),
    fields: Type.Record(Type.String(), Type.Unknown()),
    locale: Type.Union([Type.String(), Type.Null()], {
      description:
        "The locale the record was made in (a restore writes into it); null in a project without locales and for records from before it had them (the default locale's).",
    }),
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
        locale: null,
        actor: { id: 'usr_01JD3ZK4Q7M2X8V5B6N9C0R1T4', email: 'grace@example.com' },
        at: '2026-11-21T09:30:00.000Z',
      },
    ],
  },
);

export const PageSummary = Type.Object(
  {
    pageId: Type.String(),
    shared: Type.Boolean({
      description:
        'true for a shared page (a page id starting with "@", such as "@site"): definitions and entries like any page, but no route of the site (the dashboard builds no preview URL for it).',
    }),
    components: Type.Integer({ description: 'Definitions on the page.' }),
    published: Type.Integer({ description: 'Entries with a published copy.' }),
    drafts: Type.Integer({
      description: 'Entries whose working copy differs from their published copy, or never published.',
    }),
    updatedAt: Type.String({
      format: 'date-time',
      description:
        'The latest change to any entry or definition of the page (in a project with locales, a translation saved or published included).',
    }),
    locales: Type.Optional(
      Type.Array(
        Type.Object({
          code: Type.String(),
          published: Type.Integer({
            description:
              'Entries with a published copy of their own in this locale (one it only reads through a fallback does not count).',
          }),
          drafts: Type.Integer({
            description:
              'Entries changed in this locale since their last publish in it (its own values, or a shared value), or never published in it. The default locale counts as the page does.',
          }),
        }),
        {
          description:
            "A project with locales (contract §13): each of the project's locales, in the project's order, with the page's counts in it. Absent in a project without locales.",
        },
      ),
    ),
  },
  {
    title: 'PageSummary',
    examples: [
      {
        pageId: '/',
        shared: false,
        components: 3,
        published: 2,
        drafts: 1,
        updatedAt: '2026-11-21T09:30:00.000Z',
      },
    ],
  },
);

/** The most pages one GET /v1/pages answers (and its default): a client of part two saw them all. */
export const PAGES_PER_LIST = 1000;

export const PagesQuery = Strict({
  q: Type.Optional(
    Type.String({
      maxLength: LIMITS.pagePathLength,
      description:
        'Only pages whose id contains this text, compared case-insensitively ("BLOG" finds "/blog/hello"). Empty: every page.',
      examples: ['blog'],
    }),
  ),
  limit: Type.Integer({
    minimum: 1,
    maximum: PAGES_PER_LIST,
    default: PAGES_PER_LIST,
    description: `Pages per answer (1 to ${PAGES_PER_LIST}, default ${PAGES_PER_LIST}).`,
  }),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      // base64url of a page id's UTF-8: up to 4 bytes per character.
      maxLength: Math.ceil((4 * LIMITS.pagePathLength * 4) / 3),
      description: "`meta.nextCursor` of the previous answer (opaque); the same `q` as that answer's.",
    }),
  ),
});

export const PageDeleted = Type.Object(
  {
    pageId: Type.String(),
    deleted: Type.Array(Type.String(), { description: 'Ids of the entries removed.' }),
  },
  { examples: [{ pageId: '/about', deleted: [entryExample.id] }] },
);

/** `?depth=` and `?resolve=` of content reads (contract §13). */
/** `?locale=` (contract §14): a code of the project's locales, matched case-insensitively; 400 in a project without locales. */
export const LocaleQuery = Type.String({
  minLength: 1,
  maxLength: 35,
  description:
    "The locale to read or write (contract §14): one of the project's locale codes, matched case-insensitively (`fr-ca` is `fr-CA`). Default: the project's default locale. A code the project lacks, or any `locale` in a project without locales, is 400 `validation_failed` at `query.locale`.",
  examples: ['fr-CA'],
});

/** `?locale=` of a write in one locale (PATCH). */
export const ReadLocaleQuery = Strict({ locale: Type.Optional(LocaleQuery) });

export const ContentReadQuery = Strict({
  depth: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 3,
      default: 1,
      description:
        'How many levels of references to resolve (0-3, default 1; anything else is 400). Below that, and on a cycle, a reference is `{ id }`.',
    }),
  ),
  resolve: Type.Optional(
    Type.Boolean({
      description:
        "A member's session reads stored entry ids (the editing view); `true` resolves them as a preview token would (working copies). Visitors and preview tokens always read resolved references.",
    }),
  ),
  locale: Type.Optional(LocaleQuery),
  copy: Type.Optional(
    Type.Union([Type.Literal('working'), Type.Literal('published')], {
      description:
        "A member's session: `published` reads the published copies as stored (reference ids, never resolved; each entry as a visitor of the locale would get it, `?fallback=false` for the locale's own copies) instead of the working copies: what an export needs. Ignored for visitors (they always read published copies) and preview tokens.",
    }),
  ),
  fallback: Type.Optional(
    Type.Boolean({
      default: true,
      description:
        "`false` reads the locale's own copies only, never a value of its fallbacks (contract §14). Visitors: its own published copies (an entry not published in it is left out). A member's session and a preview token: its own working copy (its own values of translated fields and the shared values; `fallbacks` is `{}`). By default they read through the chain, `fallbacks` naming what came from another locale. Ignored in a project without locales.",
    }),
  ),
});

/** One row of `GET /v1/content/:entryId/references`. */
export const ReferenceRow = Type.Object(
  {
    id: Type.String({ description: 'The referring entry.' }),
    pageId: Type.String(),
    instanceKey: Type.String(),
    componentId: Type.String(),
    path: Type.String({ description: 'Where, as in `problems`: `fields.author`, `fields.items[1].ref`.' }),
    locale: Type.Union([Type.String(), Type.Null()], {
      description: 'The locale of a localized field’s value; null for a shared field.',
    }),
    copy: Type.Union([Type.Literal('working'), Type.Literal('published')]),
  },
  {
    title: 'ReferenceRow',
    examples: [
      {
        id: 'ent_01JD3ZK4Q7M2X8V5B6N9C0R1T2',
        pageId: '/',
        instanceKey: 'testimonials',
        componentId: 'Testimonials',
        path: 'fields.picks[0]',
        locale: null,
        copy: 'published',
      },
    ],
  },
);

/** `?force=true` of the deletions (contract §13). */
export const ForceQuery = Strict({
  force: Type.Optional(
    Type.Boolean({
      description:
        'Delete even when published content of other entries refers to it (409 otherwise); those references then read as missing.',
    }),
  ),
});
