import type { EgressGuard } from '../egress/egress-guard';
import type { McpTarget } from './mcp-session';

/** The guard's verdict on an http target before dialling, as a caller-facing message; undefined when allowed. */
export async function preflightRefusal(target: McpTarget, guard: EgressGuard): Promise<string | undefined> {
  if (target.transport !== 'http') return undefined;
  const verdict = await guard.check(target.url);
  if (verdict.allowed) return undefined;
  return /could not be resolved|did not resolve/.test(verdict.reason)
    ? `DNS failure: ${verdict.reason}`
    : `blocked: ${verdict.reason}`;
}
