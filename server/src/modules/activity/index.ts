/** The activity log's API (GET /v1/activity). Its records are written and kept by src/outbox/. */
export { activityRoutes } from './activity.routes.js';
export { type ActivityService, createActivityService } from './activity.service.js';
