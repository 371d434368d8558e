/** Every action the activity log records (contract §8), in the order the contract lists them. */
export const ACTIVITY_ACTIONS = [
  'project.created',
  'project.updated',
  'project.key_rotated',
  'user.added',
  'user.updated',
  'user.removed',
  'user.password_changed',
  'user.password_reset_issued',
  // Invitations of existing accounts (contract §23): issued, accepted (the account as actor), canceled.
  'user.invited',
  'user.invitation_accepted',
  'user.invitation_canceled',
  'api_key.created',
  'api_key.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'definitions.synced',
  'entry.updated',
  'entry.published',
  'entry.unpublished',
  'entry.restored',
  'entry.deleted',
  'page.published',
  'page.deleted',
  'objects.saved',
  'objects.deleted',
  'media.uploaded',
  'media.deleted',
  'schedule.created',
  'schedule.canceled',
  'preview_tokens.revoked',
] as const;

export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** What a record is about: `type` names the resource, `id` its id (a page's id is its `pageId`). */
export type ActivityTargetType =
  | 'project'
  | 'user'
  | 'apiKey'
  | 'webhook'
  | 'page'
  | 'entry'
  | 'object'
  | 'media'
  | 'schedule';
