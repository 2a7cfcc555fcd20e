import { LIMITS } from '../../domain/limits';

/** The lists whose `notifications/…/list_changed` an upstream may send a gateway session. */
export type ListKind = 'resources' | 'prompts';

const SECOND_MS = 1000;

/**
 * Paces what the upstreams of one gateway session send it on their own, so a storm costs a bounded number of sends:
 * a list_changed of a kind goes to the client at once when none went in the last `gatewayListChangedMs`, else once
 * when that interval ends, however many came meanwhile (so the client always hears of the last change); up to
 * `gatewayResourceUpdatesPerSecond` resources/updated go each second, the rest are refused. Its timers are unref'd
 * and cleared on `close`.
 */
export class NotificationPacer {
  private readonly sentAt = new Map<ListKind, number>();
  private readonly trailing = new Map<ListKind, NodeJS.Timeout>();
  private updates = { since: 0, count: 0 };
  private closed = false;

  constructor(private readonly send: (kind: ListKind) => void) {}

  /** An upstream's list of `kind` changed. */
  listChanged(kind: ListKind): void {
    if (this.closed || this.trailing.has(kind)) return;
    const wait = (this.sentAt.get(kind) ?? -Infinity) + LIMITS.gatewayListChangedMs - Date.now();
    if (wait <= 0) return this.fire(kind);
    const timer = setTimeout(() => {
      this.trailing.delete(kind);
      this.fire(kind);
    }, wait);
    timer.unref();
    this.trailing.set(kind, timer);
  }

  /** Whether one more resources/updated may go to the client now (counted against this second's budget). */
  admitsUpdate(): boolean {
    const now = Date.now();
    if (now - this.updates.since >= SECOND_MS) this.updates = { since: now, count: 0 };
    return !this.closed && ++this.updates.count <= LIMITS.gatewayResourceUpdatesPerSecond;
  }

  close(): void {
    this.closed = true;
    for (const timer of this.trailing.values()) clearTimeout(timer);
    this.trailing.clear();
  }

  private fire(kind: ListKind): void {
    this.sentAt.set(kind, Date.now());
    this.send(kind);
  }
}
