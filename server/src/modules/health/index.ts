/** Liveness, readiness and metrics, for the HTTP process and the worker. Owns no table. */
export { healthRoutes, metricsRoutes } from './health.routes.js';
export { createMetrics, type Metrics } from './metrics.js';
export { type OpsServer, startOpsServer } from './ops-server.js';
export { createReadiness, type Readiness } from './readiness.js';
