import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { Db } from '../db/database';
import type { EgressGuard } from '../lib/outbound/egress/egress-guard';
import { listAllTools } from '../lib/outbound/mcp/list-tools';
import { describeMcpFailure } from '../lib/outbound/mcp/mcp-failure';
import { openMcpSession, requestTimeoutMs, type McpSession } from '../lib/outbound/mcp/mcp-session';
import type { ListedToolFields } from '../lib/outbound/mcp/tool-definition';
import { preflightRefusal } from '../lib/outbound/mcp/preflight';
import { McpTargetError, resolveServerTarget } from '../lib/outbound/mcp/server-target';
import type { OauthClientUrls } from '../lib/mcp/oauth-vault';
import type { CredentialVault } from '../lib/vault/credential-vault';
import type { ForwardUpstream, LinkedServer } from './forward/upstream';
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

/** An upstream session being opened or open, with the server version (config and secret) it was opened for. */
interface Held {
  version: string;
  upstream: Promise<OpenUpstream>;
}

/**
 * The upstream sessions of one gateway session, opened on first use: an HTTP server gets its own MCP session (secrets
 * from the vault in its headers, dialled through the egress guard), a stdio server a child of the shared pool. Only the
 * agent's current links may be opened (`retain`, called with every catalog the session reads): an upstream session
 * whose link went away or was disabled, or whose server was deleted or had its config or secret replaced, is closed.
 * A session that fails or closes is opened again on the next use. close() ends them all (a pooled child is released).
 */
export class Upstreams {
  private readonly open = new Map<string, Held>();
  private linked = new Map<string, LinkedServer>();
  private closed = false;
  /** Told of every upstream session opened, before it is used (the gateway session relays what it sends). */
  onOpen: (upstream: ForwardUpstream) => void = () => undefined;

  constructor(
    private readonly deps: UpstreamDeps,
    private readonly workspaceId: string,
    /** What the gateway declares to an HTTP upstream (`upstreamClientCapabilities` of the client's). */
    private readonly capabilities: ClientCapabilities = {},
  ) {}

  /** The agent's current links: an open upstream session of any other server, or of another version, is closed. */
  retain(links: LinkedServer[]): void {
    this.linked = new Map(links.map((link) => [link.serverId, link]));
    for (const [serverId, held] of this.open)
      if (this.linked.get(serverId)?.version !== held.version) this.drop(serverId, held);
  }

  /**
   * The upstream session of a currently linked server, opened now if it is not open. Requests that find the same dead
   * or failed session open one new session between them; none is opened once the gateway session is closed.
   */
  async get(serverId: string): Promise<Upstream> {
    this.linkOf(serverId);
    const current = this.open.get(serverId);
    if (current) {
      const upstream = await current.upstream.catch(() => undefined);
      // Another request may have opened it again (or retain() dropped it) meanwhile: one new session, not one each.
      const now = this.open.get(serverId);
      if (now && now !== current) return now.upstream;
      if (now === current && upstream?.alive()) return upstream;
      if (now === current) this.drop(serverId, current);
    }
    const link = this.linkOf(serverId);
    const held = { version: link.version, upstream: this.connect(link).then((upstream) => this.keepOpen(upstream)) };
    this.open.set(serverId, held);
    held.upstream.catch(() => {
      if (this.open.get(serverId) === held) this.open.delete(serverId);
    });
    return held.upstream;
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.map((held) => held.upstream.then((x) => x.close()).catch(() => undefined)));
  }

  /** The server's current link; throws once the gateway session is closed or for a server not linked. */
  private linkOf(serverId: string): LinkedServer {
    if (this.closed) throw new McpTargetError('the gateway session is closed');
    const link = this.linked.get(serverId);
    if (!link) throw new McpTargetError('the server is not linked to this agent');
    return link;
  }

  /** An upstream session that finished opening after close(): closed at once, never used. */
  private async keepOpen(upstream: OpenUpstream): Promise<OpenUpstream> {
    if (!this.closed) return upstream;
    await upstream.close();
    throw new McpTargetError('the gateway session is closed');
  }

  private drop(serverId: string, held: Held): void {
    if (this.open.get(serverId) === held) this.open.delete(serverId);
    void held.upstream.then((x) => x.close()).catch(() => undefined);
  }

  private async connect(link: LinkedServer): Promise<OpenUpstream> {
    const { serverId } = link;
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
        (listed ??= listAllTools(session.client, requestTimeoutMs(target), secretValues).then(
          (tools) => new Map(tools.map((t) => [t.name, t])),
          (error: unknown) => {
            listed = undefined;
            throw error;
          },
        ));
      this.onOpen({ ...link, client: session.client, secretValues, shared });
      return { client: session.client, session, secretValues, liveTools, shared, alive, close };
    };
    // What a failed connect says comes from the upstream (its HTTP body, its child's error): described and
    // scrubbed like every other failure before it can reach the client, never quoted.
    const described = (error: unknown): Error =>
      error instanceof McpTargetError
        ? error
        : new McpTargetError(
            describeMcpFailure(error, { timeoutMs: requestTimeoutMs(target), secrets: secretValues }).message,
          );
    if (target.transport === 'stdio_curated') {
      const lease = await pool.acquire(this.workspaceId, serverId, target).catch((error: unknown) => {
        throw described(error);
      });
      return upstream(lease.session, true, lease.alive, async () => lease.release());
    }
    const session = await openMcpSession(target, guard, this.capabilities).catch((error: unknown) => {
      throw described(error);
    });
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
