import Type from 'typebox';
import { Strict, Timestamp } from '../../http/schemas.js';

const keyExample = {
  id: 'key_01JD3ZK4Q7M2X8V5B6N9C0R1T2',
  name: 'Catalogue sync',
  prefix: 'cms_sk_Q7m2X',
  scope: 'selected',
  projectIds: ['prj_01JD3ZK4Q7M2X8V5B6N9C0R1T2'],
  access: 'write',
  createdAt: '2026-11-21T09:30:00.000Z',
  lastUsedAt: '2026-11-21T10:02:11.000Z',
};

const Scope = Type.Union([Type.Literal('all'), Type.Literal('selected')], {
  description:
    '`all`: every site the creator administers at the time of each request; `selected`: the listed sites the creator still administers.',
});
const Access = Type.Union([Type.Literal('read'), Type.Literal('write')], {
  description: '`read`: published reads; `write`: also POST /v1/objects/save.',
});

const keyProperties = {
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({
    description: 'The first characters of the key, to recognise it; the rest is never shown again.',
  }),
  scope: Scope,
  projectIds: Type.Array(Type.String(), {
    description: '`selected`: the listed sites. `all`: the sites it covers at the time of the response.',
  }),
  access: Access,
  createdAt: Timestamp,
  lastUsedAt: Type.Union([Timestamp, Type.Null()], {
    description: 'Updated at most once a minute; null until first used.',
  }),
};

export const ApiKey = Type.Object(keyProperties, { title: 'ApiKey', examples: [keyExample] });

export const CreatedApiKey = Type.Object(
  {
    ...keyProperties,
    key: Type.String({ description: 'The secret key. Shown only in this response; store it now.' }),
  },
  {
    title: 'CreatedApiKey',
    examples: [
      {
        ...keyExample,
        lastUsedAt: null,
        key: 'cms_sk_Q7m2XyQm0rVb1xk9HdWw8sJt4Lp6Nc5eR2aB3cD4eF5',
      },
    ],
  },
);

export const CreateApiKeyBody = Strict(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    scope: Scope,
    projectIds: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100, uniqueItems: true }),
    ),
    access: Access,
  },
  {
    title: 'CreateApiKeyBody',
    examples: [
      {
        name: 'Catalogue sync',
        scope: 'selected',
        projectIds: ['prj_01JD3ZK4Q7M2X8V5B6N9C0R1T2'],
        access: 'write',
      },
      { name: 'Build reader', scope: 'all', access: 'read' },
    ],
  },
);

export const ApiKeyParams = Strict({ id: Type.String({ minLength: 1, maxLength: 64 }) });
