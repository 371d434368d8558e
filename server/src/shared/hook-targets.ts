import { lookup } from 'node:dns/promises';
import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Outbound safety (SSRF) for webhook and deploy hook URLs (contract §4). A hook URL is refused when
 * it is not http(s) or when its host is, or resolves to, an address a hosted service must never
 * call on a customer's behalf.
 *
 * The rule is an allow-list: only addresses that ipaddr.js classifies as `unicast` (IPv6: inside
 * the global unicast block 2000::/3 as well) are called. Everything with a special range is
 * refused: loopback, private, CGNAT, link-local (cloud metadata lives at 169.254.169.254),
 * multicast, unspecified, broadcast, reserved, benchmarking, the documentation ranges, and IPv6
 * forms that embed or translate to IPv4 (6to4 2002::/16, Teredo 2001::/32, NAT64 64:ff9b::/96,
 * SIIT ::ffff:0:0/96), since they can lead back into private IPv4 space through a relay. An
 * IPv4-mapped address (::ffff:a.b.c.d, however spelled) is a plain IPv4 connection in Node, so it
 * is judged as that IPv4 address. Hand-written range tables missed several of these (issue 10);
 * ipaddr.js keeps the IANA special-purpose registries for us.
 *
 * The address that passed the check is the one connected to (see hook-http.ts): resolving again at
 * connect time would let a DNS answer change in between (DNS rebinding).
 */
const globalUnicastV6 = ipaddr.IPv6.parseCIDR('2000::/3');

/** True when an IP literal is in a refused range (or is not an IP literal at all). */
export function isBlockedAddress(address: string): boolean {
  // ipaddr.js also reads legacy IPv4 spellings (0x7f.1); only the forms Node itself connects to count.
  if (!isIPv4(address) && !isIPv6(address)) return true;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return true; // not an address at all: refuse rather than guess
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() !== 'unicast';
    return v6.range() !== 'unicast' || !v6.match(globalUnicastV6);
  }
  return parsed.range() !== 'unicast';
}

export type VettedTarget =
  | { ok: true; url: URL; address: string; family: 4 | 6 }
  | { ok: false; reason: string; unresolvable?: boolean };

/**
 * Parses and vets a hook URL: http(s) only, host resolved, every resolved address allowed (one bad
 * answer among several is enough to refuse: the connection could use any of them).
 */
export async function vetTarget(rawUrl: string, allowPrivate: boolean): Promise<VettedTarget> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { ok: false, reason: 'is not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, reason: 'must be http or https' };
  if (url.username || url.password) return { ok: false, reason: 'must not carry credentials' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIPv4(host) || isIPv6(host)) addresses = [{ address: host, family: isIPv4(host) ? 4 : 6 }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      return { ok: false, reason: `host "${host}" does not resolve`, unresolvable: true };
    }
  }
  const first = addresses[0];
  if (!first) return { ok: false, reason: `host "${host}" does not resolve`, unresolvable: true };
  if (!allowPrivate) {
    const bad = addresses.find((a) => isBlockedAddress(a.address));
    if (bad) {
      return {
        ok: false,
        reason: `resolves to ${bad.address}, a loopback, private, link-local or otherwise reserved address`,
      };
    }
  }
  return { ok: true, url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/**
 * The check at save time (webhook create/patch, deploy hooks on PATCH /v1/projects/:id): returns
 * why the URL is refused, or null. A name that does not resolve right now is accepted — it may be
 * created later, and every send checks again — but a name that resolves to a refused address is not.
 */
export async function hookUrlProblem(rawUrl: string, allowPrivate: boolean): Promise<string | null> {
  const vetted = await vetTarget(rawUrl, allowPrivate);
  if (vetted.ok || vetted.unresolvable) return null;
  return vetted.reason;
}
