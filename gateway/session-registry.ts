import type { GatewaySession } from './gateway-session';

/**
 * The open gateway sessions of this process, by id, with a count per workspace (`gatewaySessionsPerWorkspace`). A
 * session without a request for `idleMs` is closed (its upstream sessions with it).
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, GatewaySession>();
  private readonly perWorkspace = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly idleMs: number) {
    this.timer = setInterval(() => this.closeIdle(), Math.min(idleMs / 2, 30_000));
    this.timer.unref();
  }

  get(id: string): GatewaySession | undefined {
    return this.sessions.get(id);
  }

  count(workspaceId: string): number {
    return this.perWorkspace.get(workspaceId) ?? 0;
  }

  add(session: GatewaySession): void {
    this.sessions.set(session.id, session);
    const workspaceId = session.owner.workspaceId;
    this.perWorkspace.set(workspaceId, this.count(workspaceId) + 1);
  }

  remove(session: GatewaySession): void {
    if (!this.sessions.delete(session.id)) return;
    const left = this.count(session.owner.workspaceId) - 1;
    if (left > 0) this.perWorkspace.set(session.owner.workspaceId, left);
    else this.perWorkspace.delete(session.owner.workspaceId);
  }

  /** The open sessions of an agent. */
  ofAgent(agentId: string): GatewaySession[] {
    return [...this.sessions.values()].filter((s) => s.owner.agentId === agentId);
  }

  closeIdle(now = Date.now()): void {
    for (const session of this.sessions.values()) if (now - session.lastSeen >= this.idleMs) void session.close();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.sessions.values()].map((s) => s.close()));
  }
}
