import crypto from 'node:crypto';
import { LIMITS } from '../domain/limits';
import type { EgressGuard } from '../lib/outbound/egress/egress-guard';
import { openMcpSession, type McpSession, type McpTarget } from '../lib/outbound/mcp/mcp-session';
import { McpTargetError } from '../lib/outbound/mcp/server-target';

interface PooledChild {
  session: Promise<McpSession>;
  /** Gateway sessions holding the child. */
  users: number;
  lastUsed: number;
  dead: boolean;
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
 * (a changed secret starts a new one); at most `gatewayStdioChildren` run, and one no session holds is stopped once
 * idle for `idleMs`, or first when the pool is full.
 */
export class StdioPool {
  private readonly children = new Map<string, PooledChild>();

  constructor(
    private readonly guard: EgressGuard,
    private readonly idleMs: number,
  ) {}

  async acquire(serverId: string, target: McpTarget): Promise<StdioLease> {
    const key = `${serverId}:${crypto.createHash('sha256').update(JSON.stringify(target)).digest('hex')}`;
    let child = this.children.get(key);
    if (!child) {
      this.makeRoom();
      const session = openMcpSession(target, this.guard);
      child = { session, users: 0, lastUsed: Date.now(), dead: false };
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

  private makeRoom(): void {
    if (this.children.size < LIMITS.gatewayStdioChildren) return;
    const idle = [...this.children.entries()]
      .filter(([, c]) => c.users === 0)
      .sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    if (idle.length === 0)
      throw new McpTargetError(
        `the gateway already runs ${LIMITS.gatewayStdioChildren} stdio servers, all in use (limit gatewayStdioChildren)`,
      );
    this.stop(...idle[0]);
  }

  private stop(key: string, child: PooledChild): void {
    this.drop(key, child);
    void child.session.then((s) => s.close()).catch(() => undefined);
  }

  private drop(key: string, child: PooledChild): void {
    child.dead = true;
    if (this.children.get(key) === child) this.children.delete(key);
  }
}
