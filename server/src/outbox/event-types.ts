/** The catalog of subscribable event types (contract §4), returned by GET /v1/webhooks. */
export const EVENT_TYPES = [
  { type: 'content.published', description: 'Content entries were published (single or bulk publish).' },
  {
    type: 'content.unpublished',
    description: 'A content entry was taken down (its published copy removed).',
  },
  { type: 'objects.published', description: 'Objects were saved with status "published".' },
  { type: 'objects.deleted', description: 'A published object was deleted (gone from every view).' },
  { type: 'media.uploaded', description: 'An image was uploaded.' },
  { type: 'media.deleted', description: 'An image was deleted.' },
  { type: 'ping', description: 'A test event sent on demand by POST /v1/webhooks/:id/test.' },
] as const;

/**
 * Events no webhook receives, not even one subscribed to `*`: they only move deploy hooks. Removing a
 * locale changes what a site builds and announces nothing to subscribers (contract §17).
 */
export const INTERNAL_EVENT_TYPES = ['project.locales_removed'] as const;

export type EventType = (typeof EVENT_TYPES)[number]['type'] | (typeof INTERNAL_EVENT_TYPES)[number];

export const isInternalEvent = (type: string): boolean =>
  (INTERNAL_EVENT_TYPES as readonly string[]).includes(type);

/** Events that count as a publish and so trigger deploy hooks (contract §4; deletions of live data, part two §6). */
export const DEPLOY_TRIGGERS: readonly EventType[] = [
  'content.published',
  'content.unpublished',
  'objects.published',
  'objects.deleted',
  'project.locales_removed',
];
