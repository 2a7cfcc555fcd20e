import { Client } from 'pg';
import { EVAL_PROGRESS_CHANNEL } from '../../db/case-result.repository';
import type { Logger } from '../../lib/logger';
import { parseRelayEvent, type RelayEvent } from './relay-messages';

/** The application_name of the relay's LISTEN connection (visible in pg_stat_activity). */
export const RELAY_APPLICATION_NAME = 'assay-eval-relay';

/** Where the listener reports: every parsed notification, and each time LISTEN is (re-)established. */
export interface ProgressListenerOptions {
  connectionString: string;
  logger: Logger;
  onEvent(event: RelayEvent): void;
  onListening(): void;
  retryMs?: { initial: number; max: number };
}

/** The relay's one LISTEN connection; `ready` resolves once the first LISTEN is in place. */
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
      const event = message.channel === EVAL_PROGRESS_CHANNEL ? parseRelayEvent(message.payload) : undefined;
      if (event) options.onEvent(event);
      else
        options.logger.warn({ channel: message.channel }, 'eval relay ignored a notification it does not understand');
    });
    next.on('error', (error) => {
      options.logger.warn({ err: { message: error.message } }, 'eval relay lost its LISTEN connection');
      scheduleReconnect(next);
    });
    next.on('end', () => scheduleReconnect(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${EVAL_PROGRESS_CHANNEL}`);
    } catch (error) {
      options.logger.warn({ err: { message: (error as Error).message } }, 'eval relay could not LISTEN; retrying');
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
