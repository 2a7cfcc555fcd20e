import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { Db } from '../db/database';
import type { EgressGuard } from '../lib/outbound/egress/egress-guard';
import { listAllTools } from '../lib/outbound/mcp/list-tools';
import { openMcpSession, requestTimeoutMs, type McpSession } from '../lib/outbound/mcp/mcp-session';
import type { ListedToolFields } from '../lib/outbound/mcp/tool-definition';
import { preflightRefusal } from '../lib/outbound/mcp/preflight';
import { McpTargetError, resolveServerTarget } from '../lib/outbound/mcp/server-target';
import type { OauthClientUrls } from '../lib/mcp/oauth-vault';
import type { CredentialVault } from '../lib/vault/credential-vault';
import type { StdioPool } from './stdio-pool';

/** An open session to one linked server, and the secret values nothing sent to the client may contain. */
export interface Upstream {
  client: Client;
  secretValues: string[];
  session: McpSession;
  /** The server's tools as it lists them now, by name: listed once per upstream session, on first use. */
  liveTools(): Promise<Map<string, ListedToolFields>>;
  /** A pooled stdio child other sessions use too: nothing it sends on its own is relayed (gateway/forward/). */
  shared: boolean;
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
  /** Assay's OAuth client identity: an upstream behind OAuth gets its bearer token (refreshed when due) like a worker's call. */
  oauthClient: OauthClientUrls;
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
    /** What the gateway declares to an HTTP upstream (`upstreamClientCapabilities` of the client's). */
    private readonly capabilities: ClientCapabilities = {},
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
    const { db, vault, guard, pool, oauthClient } = this.deps;
    const resolved = await resolveServerTarget(db, vault, this.workspaceId, serverId, { guard, oauthClient });
    const refusal = await preflightRefusal(resolved.target, guard);
    if (refusal) throw new McpTargetError(refusal);
    const { secretValues, target } = resolved;
    const upstream = (
      session: McpSession,
      shared: boolean,
      alive: () => boolean,
      close: () => Promise<void>,
    ): OpenUpstream => {
      let listed: Promise<Map<string, ListedToolFields>> | undefined;
      const liveTools = (): Promise<Map<string, ListedToolFields>> =>
        (listed ??= listAllTools(session.client, requestTimeoutMs(target)).then(
          (tools) => new Map(tools.map((t) => [t.name, t])),
          (error: unknown) => {
            listed = undefined;
            throw error;
          },
        ));
      return { client: session.client, session, secretValues, liveTools, shared, alive, close };
    };
    if (target.transport === 'stdio_curated') {
      const lease = await pool.acquire(serverId, target);
      return upstream(lease.session, true, lease.alive, async () => lease.release());
    }
    const session = await openMcpSession(target, guard, this.capabilities);
    let alive = true;
    session.client.onclose = () => (alive = false);
    return upstream(
      session,
      false,
      () => alive,
      () => session.close(),
    );
  }
}
