/** The editor's web app, served as static files at /admin. Owns no table. */
export { dashboardRoutes } from './dashboard.routes.js';
