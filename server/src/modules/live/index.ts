/** Live update streams (GET /v1/live), fed by the change bus. Owns no table. */
export { createLiveHub, type LiveHub } from './live.hub.js';
export { liveRoutes } from './live.routes.js';
