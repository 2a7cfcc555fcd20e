import type { EgressGuard } from '../egress/egress-guard';
import type { McpTarget } from './mcp-session';

/** The guard's verdict on an http target before dialling, as a caller-facing message; undefined when allowed. */
export async function preflightRefusal(target: McpTarget, guard: EgressGuard): Promise<string | undefined> {
  if (target.transport !== 'http') return undefined;
  const verdict = await guard.check(target.url);
  if (verdict.allowed) return undefined;
  if (/could not be resolved|did not resolve/.test(verdict.reason)) return `DNS failure: ${verdict.reason}`;
  // A server on this machine or a private network is refused by default; say how an operator allows it.
  const hint = / address$/.test(verdict.reason) ? ' (an operator can allow it with EGRESS_ALLOWLIST)' : '';
  return `blocked: ${verdict.reason}${hint}`;
}
