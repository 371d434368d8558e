import Type from 'typebox';
import { Strict } from '../../http/schemas.js';
import { ContentReadQuery } from '../content/index.js';
import { PageId } from '../definitions/index.js';

export const LiveQuery = Strict(
  {
    pageId: PageId,
    depth: ContentReadQuery.properties.depth,
    locale: ContentReadQuery.properties.locale,
    fallback: ContentReadQuery.properties.fallback,
  },
  { examples: [{ pageId: '/' }] },
);

const streamExample = [
  ': stream open',
  '',
  'event: entry',
  'data: {"id":"ent_01JD3ZK4Q7M2X8V5B6N9C0R1T2","pageId":"/","instanceKey":"hero","componentId":"Hero","fields":{"title":"Hello, world"},"status":"published","publishedAt":"2026-11-21T09:30:00.000Z","updatedAt":"2026-11-21T09:30:00.000Z"}',
  '',
  ': keep-alive',
  '',
  'event: deleted',
  'data: {"id":"ent_01JD3ZK4Q7M2X8V5B6N9C0R1T2"}',
  '',
  '',
].join('\n');

/** The 200 answer: a text/event-stream body, documented per media type (no JSON envelope). */
export const LiveStream = {
  description:
    'A Server-Sent Events stream (`text/event-stream`) that stays open: `event: entry` with the entry as JSON, `event: deleted` with `{ "id" }`, and `:` comment lines as heartbeats.',
  content: {
    'text/event-stream': {
      schema: Type.String({
        description: 'UTF-8 Server-Sent Events; each `data:` is one line of JSON.',
        examples: [streamExample],
      }),
    },
  },
};
