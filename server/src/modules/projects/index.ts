/**
 * Projects and their deploy hooks: owns `projects` and `deploy_hooks`. Lends the site cache, a
 * project's deploy hooks (deploys) and an account's projects with its role (auth's /me).
 */
export { sealDeployHookSecrets } from './deploy-hooks.secrets.js';
export { deployHooksOf, findDeployHook, projectsOfAccount } from './projects.repository.js';
export { projectsRoutes } from './projects.routes.js';
export { createProjectsService, type ProjectsService } from './projects.service.js';
export { createSiteCache, loadSite, type SiteCache } from './site-cache.js';
