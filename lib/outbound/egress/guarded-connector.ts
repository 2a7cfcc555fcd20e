import { promises as dns, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { buildConnector } from 'undici';
import type { Allowlist } from './allowlist';
import { EgressBlockedError, EgressTimeoutError } from './egress-errors';
import { refuseHost, refuseResolved } from './target-policy';

/** Resolves a host name to all its addresses; injectable so tests can map names without real DNS. */
export type HostLookup = (hostname: string) => Promise<LookupAddress[]>;

/** The system resolver (getaddrinfo), returning every address in resolver order. */
export const systemLookup: HostLookup = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

function familyOf(option: number | string | undefined): number {
  if (option === 'IPv4') return 4;
  if (option === 'IPv6') return 6;
  return typeof option === 'number' ? option : 0;
}

/** A `net.connect` lookup that refuses the connection if any resolved address is not allowed. */
export function guardedLookup(lookup: HostLookup, allowlist: Allowlist): LookupFunction {
  return (hostname, options, callback) => {
    const onResolved = (all: LookupAddress[]): void => {
      const refusal = refuseResolved(
        hostname,
        all.map((entry) => entry.address),
        allowlist,
      );
      if (refusal !== undefined) return callback(new EgressBlockedError(refusal), []);
      const family = familyOf(options.family);
      const wanted = family === 0 ? all : all.filter((entry) => entry.family === family);
      if (wanted.length === 0) {
        return callback(Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }), []);
      }
      if (options.all === true) return callback(null, wanted);
      callback(null, wanted[0].address, wanted[0].family);
    };
    lookup(hostname).then(onResolved, (error: NodeJS.ErrnoException) => callback(error, []));
  };
}

/** Options for {@link createGuardedConnector}. */
export interface GuardedConnectorOptions {
  allowlist: Allowlist;
  lookup: HostLookup;
  connectTimeoutMs: number;
}

/** An undici connector that checks literal IPs and metadata names, then resolves through {@link guardedLookup}. */
export function createGuardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const connect = buildConnector({
    timeout: options.connectTimeoutMs,
    lookup: guardedLookup(options.lookup, options.allowlist),
  });
  return (target, callback) => {
    const refusal = refuseHost(target.hostname, options.allowlist);
    if (refusal !== undefined) return callback(new EgressBlockedError(refusal), null);
    connect(target, (...args) => {
      const [error] = args;
      if (error?.name === 'ConnectTimeoutError') {
        return callback(new EgressTimeoutError(options.connectTimeoutMs), null);
      }
      callback(...args);
    });
  };
}
