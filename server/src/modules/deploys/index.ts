/** Deploy triggers and calls: owns `deploys` and `deploy_triggers`; the hooks are the project's. */
export { callDeployHooks, fireDeployTriggers, triggersFromEvents } from './deploys.jobs.js';
export { deploysRoutes } from './deploys.routes.js';
export { createDeploysService, type DeploysService } from './deploys.service.js';
