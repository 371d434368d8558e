/**
 * One fixed window of one limited subject (`<scope>:<subject>`, e.g. `project_create:203.0.113.7`):
 * how many requests it made in the window. Shared by every instance through the database.
 */
export interface RateLimitCountsTable {
  key: string;
  /** ISO start of the window. */
  windowStart: string;
  /** ISO end of the window: the row is useless afterwards and pruned. */
  expiresAt: string;
  count: number;
}
