import type { Db } from '../db/database';
import { logError, type Logger } from '../lib/logger';
import { loadAgentTools, type AgentToolCatalog } from './tool-catalog';

interface Cached {
  catalog: Promise<AgentToolCatalog>;
  /** Open gateway sessions of the agent: while there is one, the catalog is kept and re-read. */
  sessions: number;
}

/**
 * The tool catalogs of agents with open gateway sessions, read once and kept: a call finds its tool without a query.
 * Every `pollMs` each kept catalog is read again; when its fingerprint changed (a link added, removed, disabled, its
 * allowlist, prefix or overrides changed, a server's tools synced differently) `onChange(agentId)` tells the sessions,
 * which send `notifications/tools/list_changed`. Polling rather than NOTIFY: no trigger on four tables, and one short
 * query per agent per interval.
 */
export class AgentCatalogs {
  private readonly cached = new Map<string, Cached>();
  private readonly timer: NodeJS.Timeout;
  private polling = false;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    pollMs: number,
    private readonly onChange: (agentId: string) => void,
  ) {
    this.timer = setInterval(() => void this.poll(), pollMs);
    this.timer.unref();
  }

  /** The agent's catalog (read now if no session holds it). */
  get(agentId: string): Promise<AgentToolCatalog> {
    const cached = this.cached.get(agentId);
    if (cached) return cached.catalog;
    return loadAgentTools(this.db, agentId);
  }

  /** A session of the agent opened: its catalog is kept from now on. */
  hold(agentId: string): void {
    const cached = this.cached.get(agentId);
    if (cached) cached.sessions++;
    else this.cached.set(agentId, { catalog: this.load(agentId), sessions: 1 });
  }

  /** A session of the agent ended. */
  release(agentId: string): void {
    const cached = this.cached.get(agentId);
    if (cached && --cached.sessions <= 0) this.cached.delete(agentId);
  }

  close(): void {
    clearInterval(this.timer);
    this.cached.clear();
  }

  private load(agentId: string): Promise<AgentToolCatalog> {
    const loading = loadAgentTools(this.db, agentId);
    // A failed read fails the calls that wait for it; the next poll reads again.
    loading.catch(() => undefined);
    return loading;
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      for (const [agentId, cached] of this.cached) {
        const before = await cached.catalog.catch(() => undefined);
        const after = await loadAgentTools(this.db, agentId);
        if (this.cached.get(agentId) !== cached) continue;
        cached.catalog = Promise.resolve(after);
        if (before && before.fingerprint !== after.fingerprint) this.onChange(agentId);
      }
    } catch (error) {
      this.logger.warn({ ...logError(error) }, 'gateway catalog poll failed');
    } finally {
      this.polling = false;
    }
  }
}
