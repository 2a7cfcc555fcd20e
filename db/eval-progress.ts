import { sql } from 'kysely';
import { Client } from 'pg';
import { z } from 'zod';
import type { CaseStatus } from '../domain/scoring/case-outcome';
import { logError } from '../domain/logged-error';
import type { Db } from './database';

/**
 * The eval-progress channel, owned here whole: its name, both payloads and their parser, the NOTIFY (sent inside the
 * writer's transaction, so an event goes out exactly when its row commits) and the LISTEN client the relay consumes.
 */

/** The Postgres channel on which every stored case result and every run's end is announced. */
export const EVAL_PROGRESS_CHANNEL = 'assay_eval_progress';

/** The application_name of the relay's LISTEN connection (visible in pg_stat_activity). */
export const RELAY_APPLICATION_NAME = 'assay-eval-relay';

/** One stored case result as the relay sees it (a flush's notification carries several). */
export interface EvalProgressEvent {
  run_id: string;
  workspace_id: string;
  scored: number;
  total: number | null;
  case_id: string;
  status: CaseStatus;
}

/** The payload announcing that a run ended, on the same channel as its case results (so it arrives after them). */
export interface EvalRunStatusEvent {
  run_id: string;
  workspace_id: string;
  type: 'run_status';
  status: 'completed' | 'failed' | 'cancelled';
}

/** A notification read from the progress channel. */
export type EvalProgressNotification = EvalProgressEvent | EvalRunStatusEvent;

/**
 * The payload of one flush of results: the cases it stored, in order, and the run's scored count after it. The
 * listener expands it into one `EvalProgressEvent` per case. At most `PROGRESS_FLUSH_MAX` cases, which keeps it far
 * below Postgres's 8000-byte NOTIFY limit (about 70 bytes a case).
 */
export interface EvalProgressFlush {
  run_id: string;
  workspace_id: string;
  scored: number;
  total: number | null;
  cases: Array<{ case_id: string; status: CaseStatus }>;
}

/** Most cases one progress notification carries: a writer stores at most this many results per flush. */
export const PROGRESS_FLUSH_MAX = 50;

/** Sends one notification on the channel, in the caller's transaction. */
export async function notifyEvalProgress(db: Db, event: EvalProgressFlush | EvalRunStatusEvent): Promise<void> {
  await sql`SELECT pg_notify(${EVAL_PROGRESS_CHANNEL}, ${JSON.stringify(event)})`.execute(db);
}

const status = z.enum(['passed', 'failed', 'error', 'skipped']);
const progressFlush = z.object({
  run_id: z.string(),
  workspace_id: z.string(),
  scored: z.number(),
  total: z.number().nullable(),
  cases: z.array(z.object({ case_id: z.string(), status })).max(PROGRESS_FLUSH_MAX),
});
const runStatusEvent = z.object({
  run_id: z.string(),
  workspace_id: z.string(),
  type: z.literal('run_status'),
  status: z.enum(['completed', 'failed', 'cancelled']),
});

/**
 * Parses a NOTIFY payload into its events: a flush becomes one event per stored case, each with the scored count as
 * of that case (the flush's count less the cases after it). Undefined for anything that is not a payload of the channel.
 */
export function parseEvalProgress(payload: string | undefined): EvalProgressNotification[] | undefined {
  try {
    const value: unknown = JSON.parse(payload ?? '');
    const parsed = runStatusEvent.safeParse(value);
    if (parsed.success) return [parsed.data];
    const flush = progressFlush.safeParse(value);
    if (!flush.success) return undefined;
    const { cases, ...run } = flush.data;
    return cases.map(({ case_id, status }, i) => ({
      run_id: run.run_id,
      workspace_id: run.workspace_id,
      scored: run.scored - (cases.length - 1 - i),
      total: run.total,
      case_id,
      status,
    }));
  } catch {
    return undefined;
  }
}

/** True for an event announcing the end of a run. */
export function isRunStatusEvent(event: EvalProgressNotification): event is EvalRunStatusEvent {
  return 'type' in event && event.type === 'run_status';
}

/** The log lines the listener writes (a pino logger fits). */
export interface ListenerLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** Where the listener reports: every parsed notification, and each time LISTEN is (re-)established. */
export interface ProgressListenerOptions {
  connectionString: string;
  logger: ListenerLog;
  onEvent(event: EvalProgressNotification): void;
  onListening(): void;
  retryMs?: { initial: number; max: number };
}

/** The one LISTEN connection; `ready` resolves once the first LISTEN is in place. */
export interface ProgressListener {
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * LISTENs on the eval progress channel with a dedicated client (a pooled one would be handed to other queries), and
 * reconnects with backoff when the connection drops; `onListening` runs after every LISTEN so callers can re-read
 * what was committed while nobody listened.
 */
export function listenForEvalProgress(options: ProgressListenerOptions): ProgressListener {
  const retry = options.retryMs ?? { initial: 250, max: 5_000 };
  let client: Client | undefined;
  let closed = false;
  let delay = retry.initial;
  let timer: NodeJS.Timeout | undefined;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const scheduleReconnect = (current: Client): void => {
    if (closed || client !== current || timer) return;
    client = undefined;
    current.end().catch(() => undefined);
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, delay);
    delay = Math.min(delay * 2, retry.max);
  };

  const connect = async (): Promise<void> => {
    const next = new Client({
      connectionString: options.connectionString,
      application_name: RELAY_APPLICATION_NAME,
      keepAlive: true,
    });
    client = next;
    next.on('notification', (message) => {
      const events = message.channel === EVAL_PROGRESS_CHANNEL ? parseEvalProgress(message.payload) : undefined;
      if (events) for (const event of events) options.onEvent(event);
      else
        options.logger.warn({ channel: message.channel }, 'eval relay ignored a notification it does not understand');
    });
    next.on('error', (error) => {
      options.logger.warn(logError(error), 'eval relay lost its LISTEN connection');
      scheduleReconnect(next);
    });
    next.on('end', () => scheduleReconnect(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${EVAL_PROGRESS_CHANNEL}`);
    } catch (error) {
      options.logger.warn(logError(error), 'eval relay could not LISTEN; retrying');
      scheduleReconnect(next);
      return;
    }
    if (closed || client !== next) {
      await next.end().catch(() => undefined);
      return;
    }
    delay = retry.initial;
    options.logger.info({ channel: EVAL_PROGRESS_CHANNEL }, 'eval relay listening');
    markReady();
    options.onListening();
  };

  void connect();
  return {
    ready,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}
