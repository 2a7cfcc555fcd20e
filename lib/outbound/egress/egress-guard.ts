import { Agent, fetch as undiciFetch, type Dispatcher, type RequestInit, type Response } from 'undici';
import { isIpLiteral, normaliseHostname } from '../../address-policy';
import { parseAllowlist, type Allowlist } from './allowlist';
import { EgressBlockedError, findEgressError } from './egress-errors';
import { createGuardedConnector, systemLookup, type HostLookup } from './guarded-connector';
import { refuseResolved, refuseUrl } from './target-policy';

/** The guard's judgement of a URL before dialling. */
export type EgressVerdict =
  { allowed: true; hostname: string; addresses: string[] } | { allowed: false; reason: string };

/** Options for {@link createEgressGuard}; `allowlist` is the `EGRESS_ALLOWLIST` value or a parsed one. */
export interface EgressGuardOptions {
  allowlist: string | Allowlist;
  connectTimeoutMs?: number;
  lookup?: HostLookup;
}

/** SSRF-safe outbound access: a guarded dispatcher for other clients, a fetch, and a pre-flight check. */
export interface EgressGuard {
  readonly dispatcher: Dispatcher;
  readonly connectTimeoutMs: number;
  fetch(url: string | URL, init?: RequestInit): Promise<Response>;
  check(url: string | URL): Promise<EgressVerdict>;
  close(): Promise<void>;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 5000;
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

function parseUrl(url: string | URL): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** Builds the egress guard used for every outbound call to a user-supplied address. */
export function createEgressGuard(options: EgressGuardOptions): EgressGuard {
  const allowlist = typeof options.allowlist === 'string' ? parseAllowlist(options.allowlist) : options.allowlist;
  const lookup = options.lookup ?? systemLookup;
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const dispatcher = new Agent({ connect: createGuardedConnector({ allowlist, lookup, connectTimeoutMs }) });

  const check = async (url: string | URL): Promise<EgressVerdict> => {
    const parsed = parseUrl(url);
    if (parsed === undefined) return { allowed: false, reason: 'the URL is not valid' };
    const refusal = refuseUrl(parsed, allowlist);
    if (refusal !== undefined) return { allowed: false, reason: refusal };
    const hostname = normaliseHostname(parsed.hostname);
    if (isIpLiteral(hostname)) return { allowed: true, hostname, addresses: [hostname] };
    let addresses: string[];
    try {
      addresses = (await lookup(parsed.hostname)).map((entry) => entry.address);
    } catch {
      return { allowed: false, reason: `${hostname} could not be resolved` };
    }
    const resolvedRefusal = refuseResolved(hostname, addresses, allowlist);
    if (resolvedRefusal !== undefined) return { allowed: false, reason: resolvedRefusal };
    return { allowed: true, hostname, addresses };
  };

  // DNS is left to connect time (guarded lookup), so a name is resolved once and rebinding cannot slip through.
  const fetch = async (url: string | URL, init: RequestInit = {}): Promise<Response> => {
    const parsed = parseUrl(url);
    if (parsed === undefined) throw new EgressBlockedError('the URL is not valid');
    const refusal = refuseUrl(parsed, allowlist);
    if (refusal !== undefined) throw new EgressBlockedError(refusal);
    try {
      return await undiciFetch(parsed, { ...init, dispatcher, redirect: 'manual' });
    } catch (error) {
      throw findEgressError(error) ?? error;
    }
  };

  return { dispatcher, connectTimeoutMs, fetch, check, close: () => dispatcher.close() };
}

/** A caller-facing message when a response is a redirect the guard did not follow, else undefined. */
export function redirectRefusal(response: { status: number }): string | undefined {
  if (!REDIRECT_STATUSES.has(response.status)) return undefined;
  return `redirect not followed (HTTP ${response.status})`;
}
