import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Db } from '../db/database';
import type { EgressGuard } from '../lib/outbound/egress/egress-guard';
import { openMcpSession, type McpSession } from '../lib/outbound/mcp/mcp-session';
import { preflightRefusal } from '../lib/outbound/mcp/preflight';
import { McpTargetError, resolveServerTarget } from '../lib/outbound/mcp/server-target';
import type { CredentialVault } from '../lib/vault/credential-vault';
import type { StdioPool } from './stdio-pool';

/** An open session to one linked server, and the secret values nothing sent to the client may contain. */
export interface Upstream {
  client: Client;
  secretValues: string[];
  session: McpSession;
}

/** An upstream session as the gateway session holds it. */
interface OpenUpstream extends Upstream {
  alive(): boolean;
  close(): Promise<void>;
}

/** What upstream sessions are opened with. */
export interface UpstreamDeps {
  db: Db;
  vault: CredentialVault;
  guard: EgressGuard;
  pool: StdioPool;
}

/**
 * The upstream sessions of one gateway session, opened on first use: an HTTP server gets its own MCP session (secrets
 * from the vault in its headers, dialled through the egress guard), a stdio server a child of the shared pool. A
 * session that fails or closes is opened again on the next call. close() ends them all (a pooled child is released).
 */
export class Upstreams {
  private readonly open = new Map<string, Promise<OpenUpstream>>();

  constructor(
    private readonly deps: UpstreamDeps,
    private readonly workspaceId: string,
  ) {}

  async get(serverId: string): Promise<Upstream> {
    const current = this.open.get(serverId);
    if (current) {
      const upstream = await current.catch(() => undefined);
      if (upstream?.alive()) return upstream;
      if (this.open.get(serverId) === current) this.open.delete(serverId);
      void upstream?.close();
    }
    const opening = this.connect(serverId);
    this.open.set(serverId, opening);
    opening.catch(() => {
      if (this.open.get(serverId) === opening) this.open.delete(serverId);
    });
    return opening;
  }

  async close(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.map((u) => u.then((x) => x.close()).catch(() => undefined)));
  }

  private async connect(serverId: string): Promise<OpenUpstream> {
    const { db, vault, guard, pool } = this.deps;
    const resolved = await resolveServerTarget(db, vault, this.workspaceId, serverId);
    const refusal = await preflightRefusal(resolved.target, guard);
    if (refusal) throw new McpTargetError(refusal);
    const { secretValues } = resolved;
    if (resolved.target.transport === 'stdio_curated') {
      const lease = await pool.acquire(serverId, resolved.target);
      const { session } = lease;
      return { client: session.client, session, secretValues, alive: lease.alive, close: async () => lease.release() };
    }
    const session = await openMcpSession(resolved.target, guard);
    let alive = true;
    session.client.onclose = () => (alive = false);
    return { client: session.client, session, secretValues, alive: () => alive, close: () => session.close() };
  }
}
