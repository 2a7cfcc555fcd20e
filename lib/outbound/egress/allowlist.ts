import ipaddr from 'ipaddr.js';
import { normaliseHostname, parseIp } from '../../address-policy';

/** Operator allowlist (`EGRESS_ALLOWLIST`): exact host names, literal IPs and CIDRs that bypass the address policy. */
export interface Allowlist {
  readonly entries: readonly string[];
  allowsHost(hostname: string): boolean;
  allowsIp(ip: string): boolean;
}

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

const HOSTNAME_PATTERN = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/;

function parseCidrEntry(entry: string): Cidr {
  if (!ipaddr.isValidCIDR(entry)) throw new Error(`EGRESS_ALLOWLIST: "${entry}" is not a valid CIDR`);
  const [network, bits] = ipaddr.parseCIDR(entry);
  if (network.kind() === 'ipv6' && (network as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return [(network as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return [network, bits];
}

/** Parses a comma-separated allowlist of hosts, IPs and CIDRs; an empty string allows nothing. */
export function parseAllowlist(csv: string): Allowlist {
  const entries = csv
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  const hosts = new Set<string>();
  const cidrs: Cidr[] = [];
  for (const entry of entries) {
    const ip = parseIp(entry);
    if (entry.includes('/')) cidrs.push(parseCidrEntry(entry));
    else if (ip !== undefined) cidrs.push([ip, ip.kind() === 'ipv4' ? 32 : 128]);
    else if (HOSTNAME_PATTERN.test(normaliseHostname(entry))) hosts.add(normaliseHostname(entry));
    else throw new Error(`EGRESS_ALLOWLIST: "${entry}" is not a host name, IP address or CIDR`);
  }
  return {
    entries,
    allowsHost: (hostname: string): boolean => hosts.has(normaliseHostname(hostname)),
    allowsIp: (address: string): boolean => {
      const ip = parseIp(address);
      if (ip === undefined) return false;
      return cidrs.some(([network, bits]) => network.kind() === ip.kind() && ip.match(network, bits));
    },
  };
}
