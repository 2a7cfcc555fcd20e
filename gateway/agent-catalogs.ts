import type { Db } from '../db/database';
import { logError, type Logger } from '../lib/logger';
import { loadAgentTools, type AgentToolCatalog } from './tool-catalog';

interface Cached {
  catalog: Promise<AgentToolCatalog>;
  /** Open gateway sessions of the agent: while there is one, the catalog is kept and re-read. */
  sessions: number;
  /** The fingerprint the agent's sessions last saw. */
  fingerprint?: string;
}

/**
 * The tool catalogs of agents with open gateway sessions, read once and kept: a call finds its tool without a query.
 * Every `pollMs` each kept catalog is read again; when its fingerprint changed (a link added, removed, disabled, its
 * allowlist, prefix or overrides changed, a server's tools synced differently, its config or secret replaced)
 * `onChange(agentId, catalog)` tells the sessions, which close upstream sessions the links no longer allow and send
 * `notifications/tools/list_changed`. Polling rather than NOTIFY: no trigger on four tables, and one short
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
    private readonly onChange: (agentId: string, catalog: AgentToolCatalog) => void,
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

  /** A session of the agent opened: its catalog is kept from now on, and read again so the session starts current. */
  hold(agentId: string): void {
    const cached = this.cached.get(agentId);
    if (cached) {
      cached.sessions++;
      cached.catalog = this.refresh(agentId, cached);
    } else {
      const held: Partial<Cached> & { sessions: number } = { sessions: 1 };
      this.cached.set(agentId, held as Cached);
      held.catalog = this.refresh(agentId, held as Cached);
    }
    const { catalog } = this.cached.get(agentId) as Cached;
    // A failed read fails the calls that wait for it; the next poll reads again.
    catalog.catch(() => undefined);
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

  /** Reads the agent's catalog; when its fingerprint changed since the sessions last saw it, tells them. */
  private async refresh(agentId: string, cached: Cached): Promise<AgentToolCatalog> {
    const catalog = await loadAgentTools(this.db, agentId);
    if (this.cached.get(agentId) !== cached) return catalog;
    const changed = cached.fingerprint !== undefined && cached.fingerprint !== catalog.fingerprint;
    cached.fingerprint = catalog.fingerprint;
    if (changed) this.onChange(agentId, catalog);
    return catalog;
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      for (const [agentId, cached] of this.cached) {
        const catalog = await this.refresh(agentId, cached);
        if (this.cached.get(agentId) === cached) cached.catalog = Promise.resolve(catalog);
      }
    } catch (error) {
      this.logger.warn({ ...logError(error) }, 'gateway catalog poll failed');
    } finally {
      this.polling = false;
    }
  }
}
