import { lookup } from 'node:dns/promises';
import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Outbound safety (SSRF) for webhook and deploy hook URLs (contract §4). A hook URL is refused when
 * it is not http(s) or when its host is, or resolves to, an address a hosted service must never
 * call on a customer's behalf: loopback, private, CGNAT, link-local (cloud metadata lives at
 * 169.254.169.254), multicast, unspecified, broadcast/reserved, and their IPv6 equivalents. An
 * IPv4-mapped IPv6 address (::ffff:127.0.0.1, however it is spelled) is judged as the IPv4 address.
 *
 * The address that passed the check is the one connected to (see hook-http.ts): resolving again at
 * connect time would let a DNS answer change in between (DNS rebinding).
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes broadcast 255.255.255.255
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback ::1, deprecated IPv4-compatible
  ['64:ff9b::', 96], // NAT64: reaches IPv4 space through a translator
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // deprecated site-local
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d or ::ffff:xxxx:xxxx), else null. */
function unmapIPv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  if (dotted?.[1]) return dotted[1];
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex?.[1] && hex[2]) {
    const hi = Number.parseInt(hex[1], 16);
    const lo = Number.parseInt(hex[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** True when an IP literal is in a refused range. */
export function isBlockedAddress(address: string): boolean {
  if (isIPv4(address)) return blocked.check(address, 'ipv4');
  if (!isIPv6(address)) return true; // not an address at all: refuse rather than guess
  const mapped = unmapIPv4(address);
  if (mapped) return blocked.check(mapped, 'ipv4');
  return blocked.check(address, 'ipv6');
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
