import type { IncomingMessage } from 'node:http';

export const UNTRUSTED_FORWARDING =
  "Requests arrive with X-Forwarded-For but CMS_TRUST_PROXY is not set: every client is seen as the proxy's one address, so the login limiter (100 failures an address in 15 minutes) and the live stream caps (CMS_LIVE_STREAMS_PER_CLIENT) count them all together. Behind a load balancer or reverse proxy that sets X-Forwarded-For, set CMS_TRUST_PROXY=true; if clients reach this server directly, strip the header at the edge instead.";

/**
 * Contract §16: behind a proxy without CMS_TRUST_PROXY, every client shares one address, so one
 * visitor's failed sign-ins or open streams lock the others out; nothing else would tell the
 * operator. Called for every request (the fast path included) before any route: after the first
 * warning, or when forwarding is trusted, it is one boolean test. Once per app, which is once per
 * process for a server (tests build many apps).
 */
export function untrustedForwardingWarning(
  trustProxy: boolean,
  log: { warn(msg: string): void },
): (req: IncomingMessage) => void {
  let warned = trustProxy;
  return (req) => {
    if (warned || req.headers['x-forwarded-for'] === undefined) return;
    warned = true;
    log.warn(UNTRUSTED_FORWARDING);
  };
}
