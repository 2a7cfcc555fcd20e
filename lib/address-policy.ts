import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Cloud metadata host names refused whatever they resolve to (and whatever the allowlist says). */
export const BLOCKED_HOSTNAMES: ReadonlySet<string> = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.com',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
]);

// Global unicast space (2000::/3); ipaddr.js calls anything outside its special ranges 'unicast', even ::2.
const IPV6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

const RANGE_LABELS: Readonly<Record<string, string>> = {
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  multicast: 'a multicast',
  linkLocal: 'a link-local',
  loopback: 'a loopback',
  carrierGradeNat: 'a carrier-grade NAT',
  private: 'a private',
  uniqueLocal: 'a unique-local',
  reserved: 'a reserved',
  '6to4': 'a 6to4',
  teredo: 'a Teredo',
  rfc6052: 'a NAT64',
  rfc6145: 'an IPv4-translated',
  nonGlobal: 'a non-global IPv6',
  invalid: 'an invalid',
};

/** Lower-cases a host name and strips IPv6 brackets and a trailing root dot, for comparisons. */
export function normaliseHostname(hostname: string): string {
  const unbracketed = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return unbracketed.toLowerCase().replace(/\.+$/, '');
}

/** True when the name is a literal IPv4 or IPv6 address (brackets allowed). */
export function isIpLiteral(hostname: string): boolean {
  return isIP(normaliseHostname(hostname)) !== 0;
}

/** Parses a literal address, unwrapping IPv4-mapped IPv6; undefined when it is not a literal IP. */
export function parseIp(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const literal = normaliseHostname(ip);
  if (isIP(literal) === 0) return undefined;
  try {
    return ipaddr.process(literal);
  } catch {
    return undefined;
  }
}

/** The ipaddr.js range of an address ('unicast' only for public unicast), or 'invalid'. */
export function addressRange(ip: string): string {
  const parsed = parseIp(ip);
  if (parsed === undefined) return 'invalid';
  const range = parsed.range();
  if (range === 'unicast' && parsed.kind() === 'ipv6' && !parsed.match(IPV6_GLOBAL_UNICAST)) return 'nonGlobal';
  return range;
}

/** True only for public unicast addresses; private, loopback, link-local, reserved and the like are false. */
export function isPublicUnicast(ip: string): boolean {
  return addressRange(ip) === 'unicast';
}

/** Names the range of a refused address for error messages: "a loopback address". */
export function describeRange(ip: string): string {
  const range = addressRange(ip);
  return `${RANGE_LABELS[range] ?? `a ${range}`} address`;
}

/** True for cloud metadata host names, compared case-insensitively and without a trailing dot. */
export function isBlockedHostname(hostname: string): boolean {
  return BLOCKED_HOSTNAMES.has(normaliseHostname(hostname));
}
