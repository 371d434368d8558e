/** Webhooks and their deliveries: owns `webhooks` and `webhook_deliveries`. */
export { deliveriesFromEvents, deliverWebhooks } from './webhooks.jobs.js';
export { webhooksRoutes } from './webhooks.routes.js';
export { sealWebhookSecrets } from './webhooks.secrets.js';
export { createWebhooksService, type WebhooksService } from './webhooks.service.js';
