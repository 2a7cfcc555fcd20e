import {
  describeRange,
  isBlockedHostname,
  isIpLiteral,
  isPublicUnicast,
  normaliseHostname,
} from '../../address-policy';
import type { Allowlist } from './allowlist';

const ALLOWED_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:']);

/** Why one address may not be dialled, or undefined when it is public unicast or allowlisted. */
export function refuseAddress(ip: string, allowlist: Allowlist): string | undefined {
  if (allowlist.allowsIp(ip) || isPublicUnicast(ip)) return undefined;
  return `${normaliseHostname(ip)} is ${describeRange(ip)}`;
}

/** Why a host may not be dialled before any DNS: metadata names and refused literal IPs. */
export function refuseHost(hostname: string, allowlist: Allowlist): string | undefined {
  if (isBlockedHostname(hostname)) return `${normaliseHostname(hostname)} is a cloud metadata host name`;
  if (isIpLiteral(hostname)) return refuseAddress(hostname, allowlist);
  return undefined;
}

/** Why a URL may not be fetched, judged without DNS: scheme, userinfo, then the host. */
export function refuseUrl(url: URL, allowlist: Allowlist): string | undefined {
  if (!ALLOWED_PROTOCOLS.has(url.protocol)) return `scheme ${url.protocol} is not allowed`;
  if (url.username !== '' || url.password !== '') return 'URLs with credentials (userinfo) are not allowed';
  if (url.hostname === '') return 'the URL has no host';
  return refuseHost(url.hostname, allowlist);
}

/** Why a resolved name may not be dialled: every address must be allowed unless the name itself is allowlisted. */
export function refuseResolved(
  hostname: string,
  addresses: readonly string[],
  allowlist: Allowlist,
): string | undefined {
  if (addresses.length === 0) return `${normaliseHostname(hostname)} did not resolve to any address`;
  if (allowlist.allowsHost(hostname)) return undefined;
  const refused = addresses.find((ip) => refuseAddress(ip, allowlist) !== undefined);
  if (refused === undefined) return undefined;
  return `${normaliseHostname(hostname)} resolves to ${refused}, ${describeRange(refused)}`;
}
