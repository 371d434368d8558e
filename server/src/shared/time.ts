/** Timestamps are ISO 8601 UTC with milliseconds (contract §1); stored as text, they sort as time. */
export const isoNow = (): string => new Date().toISOString();
export const isoAt = (ms: number): string => new Date(ms).toISOString();
