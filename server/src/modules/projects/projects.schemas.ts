import Type from 'typebox';
import { Email, Password, RoleSchema, Strict, Timestamp } from '../../http/schemas.js';

const HttpUrl = Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 });

// Checked further by the service (previewUrlProblem): {pageId} present, a fixed origin, no credentials.
const PreviewUrl = Type.String({
  minLength: 1,
  maxLength: 2048,
  pattern: '^https?://',
  description:
    "An http(s) URL template containing `{pageId}`, e.g. `https://example.com{pageId}`, and optionally `{locale}` where a site with languages puts the locale the editor works in (`https://example.com/{locale}{pageId}`: the dashboard's pane follows its language switcher; without locales `{locale}` is empty); its origin must not depend on the page id or the locale, and it must not carry credentials.",
  examples: ['https://example.com{pageId}', 'https://example.com/{locale}{pageId}'],
});

const hookExample = {
  id: 'netlify',
  type: 'generic',
  url: 'https://api.netlify.com/build_hooks/abc123',
  hasSecret: false,
};
export const projectExample = {
  id: 'prj_01JD3ZK4Q7M2X8V5B6N9C0R1T2',
  name: 'Marketing site',
  apiKey: 'cms_pk_3q2x7yQm0rVb1xk9HdWw8sJt4Lp6Nc5e',
  domains: ['example.com', 'localhost:5173'],
  cdnUrl: null,
  previewUrl: 'https://example.com{pageId}',
  deployHooks: [hookExample],
  bakeEnabled: true,
  definitionSync: 'additive',
  locales: null,
  createdAt: '2026-11-21T09:30:00.000Z',
  updatedAt: '2026-11-21T09:30:00.000Z',
};

const DefinitionSync = Type.Union([Type.Literal('additive'), Type.Literal('locked'), Type.Literal('open')], {
  description:
    'What a definitions sync with the publishable key may do: `additive` (default) adds definitions and fields but never changes a componentId or a field type nor removes a field (those parts are listed in `rejected`); `locked` refuses it (403); `open` lets it change everything (development). Sessions and write secret keys may always change everything.',
  examples: ['additive'],
});

const localesExample = {
  default: 'en',
  available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }, { code: 'fr-CA', fallback: 'fr' }],
};

const LocaleCode = Type.String({
  minLength: 1,
  maxLength: 35,
  description:
    'A BCP 47 language tag, matched case-insensitively and stored in canonical case (`fr-ca` → `fr-CA`).',
  examples: ['fr-CA'],
});

/** The project's languages as stored and returned (contract §14). */
export const Locales = Type.Object(
  {
    default: Type.String({
      description:
        'The default locale: where content read without `?locale=` comes from, and every chain ends.',
    }),
    available: Type.Array(
      Type.Object({
        code: Type.String(),
        fallback: Type.Optional(
          Type.String({ description: 'The locale read when this one has no value; absent on the default.' }),
        ),
      }),
    ),
  },
  {
    title: 'Locales',
    description:
      "The project's languages: `default` is among `available`; each other locale names a `fallback`, and every chain of fallbacks ends at the default.",
    examples: [localesExample],
  },
);

const LocalesInput = Strict(
  {
    default: LocaleCode,
    available: Type.Array(
      Strict({ code: LocaleCode, fallback: Type.Optional(Type.Union([LocaleCode, Type.Null()])) }),
      { minItems: 1, maxItems: 50 },
    ),
  },
  {
    title: 'LocalesInput',
    description:
      "Sets the languages (contract §14). The first time they are set, the content that exists becomes the default locale's. Changing `default` later is 409; a locale removed keeps its values hidden, and adding it again brings them back; `null` is allowed while no locale but the default holds a value (else 409).",
    examples: [localesExample],
  },
);

const DeployHookType = Type.Union([Type.Literal('generic'), Type.Literal('github_repository_dispatch')]);

export const DeployHook = Type.Object(
  {
    id: Type.String(),
    type: DeployHookType,
    url: Type.String(),
    hasSecret: Type.Boolean({ description: 'The secret is write-only; only whether one is set is shown.' }),
  },
  { title: 'DeployHook', examples: [hookExample] },
);

export const Project = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    apiKey: Type.String({ description: 'Publishable key, sent as x-cms-key. Safe in client code.' }),
    domains: Type.Array(Type.String()),
    cdnUrl: Type.Union([Type.String(), Type.Null()]),
    previewUrl: Type.Union([Type.String(), Type.Null()], {
      description:
        "The site's page URL template for the dashboard's preview pane, `{pageId}` standing for the page id; null: no preview.",
    }),
    deployHooks: Type.Array(DeployHook),
    bakeEnabled: Type.Boolean({
      description: 'Server kill-switch for build-time baking, echoed in the snapshot.',
    }),
    definitionSync: DefinitionSync,
    locales: Type.Union([Locales, Type.Null()], {
      description: 'The languages (contract §14); null: one language, and `locale` parameters are refused.',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Project', examples: [projectExample] },
);

export const ProjectWithRole = Type.Object(
  { ...Project.properties, role: RoleSchema },
  { title: 'ProjectWithRole', examples: [{ ...projectExample, role: 'admin' }] },
);

export const ProjectParams = Strict({ id: Type.String({ minLength: 1, maxLength: 64 }) });

const ProjectName = Type.String({ minLength: 1, maxLength: 200 });

export const CreateProjectBody = Strict(
  { name: ProjectName, admin: Strict({ email: Email, password: Password }) },
  {
    title: 'CreateProjectBody',
    examples: [
      { name: 'Marketing site', admin: { email: 'ada@example.com', password: 'correct horse battery' } },
    ],
  },
);

export const CreateProjectResponse = Type.Object(
  {
    project: Project,
    admin: Type.Object({ id: Type.String(), email: Type.String(), role: Type.Literal('admin') }),
  },
  {
    title: 'CreatedProject',
    examples: [
      {
        project: { ...projectExample, domains: [], deployHooks: [] },
        admin: { id: 'usr_01JD3ZK4Q7M2X8V5B6N9C0R1T3', email: 'ada@example.com', role: 'admin' },
      },
    ],
  },
);

// Host names with an optional port, as matched against a browser's Origin: example.com, localhost:5173.
const Domain = Type.String({
  maxLength: 253,
  pattern:
    '^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*(?::[0-9]{1,5})?$',
  examples: ['example.com'],
});

const DeployHookInput = Strict({
  id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' }),
  type: DeployHookType,
  url: HttpUrl,
  secret: Type.Optional(
    Type.Union([Type.String({ minLength: 1, maxLength: 512 }), Type.Null()], {
      description: 'Write-only. Omit to keep the stored secret of the hook with this id; null clears it.',
    }),
  ),
});

export const UpdateProjectBody = Strict(
  {
    name: Type.Optional(ProjectName),
    domains: Type.Optional(Type.Array(Domain, { maxItems: 100 })),
    cdnUrl: Type.Optional(Type.Union([HttpUrl, Type.Null()])),
    previewUrl: Type.Optional(Type.Union([PreviewUrl, Type.Null()])),
    bakeEnabled: Type.Optional(Type.Boolean()),
    definitionSync: Type.Optional(DefinitionSync),
    deployHooks: Type.Optional(
      Type.Array(DeployHookInput, { maxItems: 20, description: 'Replaces the list of deploy hooks.' }),
    ),
    locales: Type.Optional(Type.Union([LocalesInput, Type.Null()])),
  },
  {
    title: 'UpdateProjectBody',
    minProperties: 1,
    examples: [
      {
        domains: ['example.com'],
        deployHooks: [{ id: 'netlify', type: 'generic', url: 'https://api.netlify.com/build_hooks/abc123' }],
      },
    ],
  },
);
