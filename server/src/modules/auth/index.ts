/**
 * Sessions, sign-in and passwords: owns `sessions`, `login_failures` and `set_password_tokens`. Lends the session check, which a write
 * folds into its own first statement (content).
 */
export { authRoutes } from './auth.routes.js';
export { type AuthService, createAuthService } from './auth.service.js';
export { createLoginLimiter, type LoginLimiter } from './login-limit.js';
export {
  checkedRole,
  type SessionCheck,
  sessionAllows,
  sessionCheckPassed,
  verifySessionCheck,
} from './session-check.js';
export { issueSetPasswordLink } from './set-password.js';
