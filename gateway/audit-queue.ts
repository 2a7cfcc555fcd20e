import type { Insertable } from 'kysely';
import { insertAuditEvents } from '../db/audit.repository';
import type { Db } from '../db/database';
import type { AuditEventTable } from '../db/tables/audit-event.table';
import { logError, type Logger } from '../lib/logger';

/** How long an entry may wait to be written with others, and how many one statement writes. */
const FLUSH_MS = 100;
const BATCH_ROWS = 200;

/**
 * The gateway's audit entries, written after the answers in one statement per batch (a call no longer waits for, nor
 * competes with, an insert of its own). A batch that cannot be written is logged, never a call's failure.
 */
export class AuditQueue {
  private rows: Insertable<AuditEventTable>[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
  ) {}

  add(row: Insertable<AuditEventTable>): void {
    this.rows.push(row);
    if (this.rows.length >= BATCH_ROWS) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** Writes what waits (and waits for the writes under way); called on close too. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const rows = this.rows;
    this.rows = [];
    if (rows.length > 0) {
      this.writing = this.writing.then(() =>
        insertAuditEvents(this.db, rows).catch((error: unknown) =>
          this.logger.error({ ...logError(error), entries: rows.length }, 'gateway audit entries not written'),
        ),
      );
    }
    await this.writing;
  }
}
