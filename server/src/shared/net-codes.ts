/**
 * Socket-level failures on the way to another server (the database, the media store): no answer,
 * so the server is unavailable for now rather than the request wrong. One set for every client that
 * maps them to 503, so they cannot drift apart.
 */
export const NET_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
