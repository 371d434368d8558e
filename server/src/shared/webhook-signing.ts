import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the receiver verifies
 * `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>` where key is the base64-decoded part of
 * the `whsec_` secret. Any Standard Webhooks library verifies these headers.
 */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

export function signatureHeaders(
  secret: string,
  messageId: string,
  body: string,
  timestampSeconds: number = Math.floor(Date.now() / 1000),
): Record<string, string> {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key)
    .update(`${messageId}.${timestampSeconds}.${body}`)
    .digest('base64');
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${signature}`,
  };
}
