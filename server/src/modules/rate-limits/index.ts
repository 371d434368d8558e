/** Limits counted in the database, shared by every instance: owns `rate_limit_counts`. */
export { createWindowLimiter, type WindowLimiter } from './window-limiter.js';
