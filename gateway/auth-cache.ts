import crypto from 'node:crypto';
import { findAgent } from '../db/agent.repository';
import type { Db } from '../db/database';
import { authenticate, type AuthContext } from '../lib/token-auth';

/**
 * How long the gateway trusts one check of a token (and the agents it looked up with it): a revoked or expired token,
 * a changed role or a deleted agent stops at the gateway within this time. Without it every MCP request read the
 * token, the membership and the agent from Postgres, which dominated a forwarded call's cost (`bench -- gateway`).
 */
export const GATEWAY_AUTH_RECHECK_MS = 2000;
/** Checks kept at once; past it the oldest is dropped (it is only re-read). */
const MAX_ENTRIES = 10_000;
/** Agent look-ups kept per check (an id or a name each). */
const MAX_AGENTS = 64;

interface Entry {
  auth: AuthContext;
  agents: Map<string, string | null>;
  expires: number;
}

/** A caller's checked token and the agent its request names (undefined: no such agent in its workspace). */
export interface GatewayCaller {
  auth: AuthContext;
  agentId: string | undefined;
}

/**
 * Token checks and agent look-ups of the gateway, kept for `GATEWAY_AUTH_RECHECK_MS`. Keyed by a hash of the
 * Authorization and X-Workspace-Id headers (no token is kept as text); refusals are never kept, so a 401 or 403 is
 * always decided by a fresh read.
 */
export class GatewayAuthCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly db: Db,
    private readonly ttlMs = GATEWAY_AUTH_RECHECK_MS,
  ) {}

  async resolve(
    authorization: string | undefined,
    workspaceHeader: string | undefined,
    agent: string,
  ): Promise<GatewayCaller> {
    const key = crypto
      .createHash('sha256')
      .update(`${authorization ?? ''}\n${workspaceHeader ?? ''}`)
      .digest('base64');
    const now = Date.now();
    let entry = this.entries.get(key);
    if (!entry || entry.expires <= now) {
      const auth = await authenticate(this.db, authorization, workspaceHeader);
      entry = { auth, agents: new Map(), expires: now + this.ttlMs };
      this.entries.delete(key);
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, entry);
    }
    let agentId = entry.agents.get(agent);
    if (agentId === undefined) {
      agentId = (await findAgent(this.db, entry.auth.workspaceId, agent))?.id ?? null;
      // A missing agent is a refusal: not kept, so an agent created a moment ago is found at once.
      if (agentId !== null && entry.agents.size < MAX_AGENTS) entry.agents.set(agent, agentId);
    }
    return { auth: entry.auth, agentId: agentId ?? undefined };
  }
}
