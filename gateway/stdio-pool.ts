import crypto from 'node:crypto';
import { LIMITS } from '../domain/limits';
import type { EgressGuard } from '../lib/outbound/egress/egress-guard';
import { openMcpSession, type McpSession, type McpTarget } from '../lib/outbound/mcp/mcp-session';
import { McpTargetError } from '../lib/outbound/mcp/server-target';
import { createWorkspaceSlots, type WorkspaceSlots } from '../lib/workspace-slots';

interface PooledChild {
  workspaceId: string;
  session: Promise<McpSession>;
  /** Gateway sessions holding the child. */
  users: number;
  lastUsed: number;
  dead: boolean;
  /** Frees the child's slot of its workspace's share. */
  freeSlot(): void;
}

/** A child held by one gateway session until it releases it. */
export interface StdioLease {
  session: McpSession;
  /** False once the child has exited or was stopped: the session opens a new lease. */
  alive(): boolean;
  release(): void;
}

/**
 * The stdio servers' children of one gateway process, shared by every gateway session of the same server and started
 * with the same minimal environment as the worker's. A child is keyed by server and by its resolved command and env
 * (a changed secret starts a new one); at most `gatewayStdioChildren` run, of which at most `perWorkspace` (a fair share)
 * for one workspace's servers. One no session holds is stopped once idle for `idleMs`, or first when the pool (or the
 * workspace's share) is full.
 */
export class StdioPool {
  private readonly children = new Map<string, PooledChild>();
  private readonly slots: WorkspaceSlots;

  constructor(
    private readonly guard: EgressGuard,
    private readonly idleMs: number,
    private readonly perWorkspace: number,
  ) {
    this.slots = createWorkspaceSlots(perWorkspace);
  }

  async acquire(workspaceId: string, serverId: string, target: McpTarget): Promise<StdioLease> {
    const key = `${serverId}:${crypto.createHash('sha256').update(JSON.stringify(target)).digest('hex')}`;
    let child = this.children.get(key);
    if (!child) {
      const freeSlot = this.takeSlot(workspaceId);
      try {
        this.makeRoom();
      } catch (error) {
        freeSlot();
        throw error;
      }
      const session = openMcpSession(target, this.guard);
      child = { workspaceId, session, users: 0, lastUsed: Date.now(), dead: false, freeSlot };
      this.children.set(key, child);
      const started = child;
      session.then(
        (s) => (s.client.onclose = () => this.drop(key, started)),
        () => this.drop(key, started),
      );
    }
    child.users++;
    child.lastUsed = Date.now();
    const held = child;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      held.users--;
      held.lastUsed = Date.now();
    };
    try {
      return { session: await held.session, alive: () => !held.dead, release };
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Stops children no session holds that have been idle for the pool's idle time. */
  reap(now = Date.now()): void {
    for (const [key, child] of this.children)
      if (child.users === 0 && now - child.lastUsed >= this.idleMs) this.stop(key, child);
  }

  async close(): Promise<void> {
    const all = [...this.children.entries()];
    this.children.clear();
    await Promise.all(all.map(([, child]) => child.session.then((s) => s.close()).catch(() => undefined)));
  }

  /** One of the workspace's slots; when all are held, its longest idle child is stopped to free one. */
  private takeSlot(workspaceId: string): () => void {
    const free = this.slots.tryTake(workspaceId);
    if (free) return free;
    const idle = this.oldestIdle((child) => child.workspaceId === workspaceId);
    if (!idle)
      throw new McpTargetError(
        `this workspace already runs ${this.perWorkspace} stdio servers in the gateway, all in use (GATEWAY_STDIO_CHILDREN_PER_WORKSPACE)`,
      );
    this.stop(...idle);
    return this.slots.tryTake(workspaceId) as () => void;
  }

  private makeRoom(): void {
    if (this.children.size < LIMITS.gatewayStdioChildren) return;
    const idle = this.oldestIdle(() => true);
    if (!idle)
      throw new McpTargetError(
        `the gateway already runs ${LIMITS.gatewayStdioChildren} stdio servers, all in use (limit gatewayStdioChildren)`,
      );
    this.stop(...idle);
  }

  /** The child matching `which` that no session holds and that was used longest ago. */
  private oldestIdle(which: (child: PooledChild) => boolean): [string, PooledChild] | undefined {
    let oldest: [string, PooledChild] | undefined;
    for (const entry of this.children)
      if (entry[1].users === 0 && which(entry[1]) && (!oldest || entry[1].lastUsed < oldest[1].lastUsed))
        oldest = entry;
    return oldest;
  }

  private stop(key: string, child: PooledChild): void {
    this.drop(key, child);
    void child.session.then((s) => s.close()).catch(() => undefined);
  }

  private drop(key: string, child: PooledChild): void {
    child.dead = true;
    child.freeSlot();
    if (this.children.get(key) === child) this.children.delete(key);
  }
}
