/** Secret API keys: owns `api_keys` and `api_key_projects`. */
export { apiKeysRoutes } from './api-keys.routes.js';
export { type ApiKeysService, createApiKeysService } from './api-keys.service.js';
