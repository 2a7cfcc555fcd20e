import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { listenForEvalProgress } from '../../db/eval-progress';
import { logError } from '../../lib/logger';
import { wsConnections } from '../../lib/metrics';
import type { AppDeps } from '../app-deps';
import { authenticate, type AuthContext } from '../auth';
import { HttpError } from '../http-error';
import { serveRelayConnection, type ConnectionLimits } from './relay-connection';
import { chooseProtocol, credentialsOf, rejectUpgrade } from './relay-auth';
import { createRunFeed } from './run-feed';
import { TOO_MANY_SOCKETS_CLOSE, watchTokens } from './token-watch';

/** The path of the relay on the api's HTTP server. */
export const RELAY_PATH = '/ws';

/** Tunables of the relay (tests shorten them). */
export interface EvalRelayOptions extends Partial<ConnectionLimits> {
  pingIntervalMs?: number;
  /** How often the tokens of all open sockets are re-read (default: WS_TOKEN_RECHECK_MS). */
  tokenRecheckMs?: number;
  /** Open sockets per token in this process; one more is closed with 4429. */
  maxSocketsPerToken?: number;
}

/** A running relay; `ready` resolves once its LISTEN is in place. */
export interface EvalRelay {
  ready: Promise<void>;
  close(): Promise<void>;
}

const DEFAULTS = {
  pingIntervalMs: 30_000,
  maxSubscriptions: 20,
  maxBufferedBytes: 1024 * 1024,
  drainTimeoutMs: 10_000,
  // A page following its runs opens a socket or two; twenty leaves room for tabs while bounding one token's share.
  maxSocketsPerToken: 20,
  // A page may follow up to maxSubscriptions runs at once; after that, a few per second is plenty for a human.
  subscribeBurst: 20,
  subscribesPerSecond: 5,
};
const MAX_CLIENT_MESSAGE_BYTES = 4 * 1024;

const pathOf = (url: string | undefined): string => new URL(url ?? '/', 'http://relay.invalid').pathname;

/**
 * The live eval progress relay at `/ws` on the api's HTTP server: authenticates the upgrade with an API token, serves
 * subscribe/unsubscribe per socket, and forwards this process's one Postgres LISTEN to subscribed sockets.
 */
export function attachEvalRelay(
  server: http.Server,
  deps: Pick<AppDeps, 'config' | 'db' | 'logger'>,
  options: EvalRelayOptions = {},
): EvalRelay {
  const settings = { ...DEFAULTS, tokenRecheckMs: deps.config.WS_TOKEN_RECHECK_MS, ...options };
  const logger = deps.logger.child({ component: 'eval-relay' });
  const feed = createRunFeed(deps.db, logger);
  const tokens = watchTokens(deps.db, logger, settings.tokenRecheckMs);
  const listener = listenForEvalProgress({
    connectionString: deps.config.DATABASE_URL ?? '',
    logger,
    onEvent: (event) => feed.push(event),
    onListening: () => feed.resyncAll(),
  });
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_CLIENT_MESSAGE_BYTES,
    perMessageDeflate: false,
    handleProtocols: chooseProtocol,
  });
  const alive = new Map<WebSocket, boolean>();

  const accept = (socket: WebSocket, auth: AuthContext): void => {
    alive.set(socket, true);
    wsConnections.inc();
    socket.on('pong', () => alive.set(socket, true));
    socket.on('close', () => {
      alive.delete(socket);
      wsConnections.dec();
    });
    socket.on('error', (error) => logger.debug(logError(error), 'eval relay socket error'));
    // Counted and tracked in the same tick as the upgrade completes, so two upgrades cannot both take the last place.
    if (tokens.count(auth.tokenId) >= settings.maxSocketsPerToken) {
      logger.info(
        { user_id: auth.userId, token_id: auth.tokenId },
        'eval relay refused a socket over the per-token cap',
      );
      socket.close(TOO_MANY_SOCKETS_CLOSE, `at most ${settings.maxSocketsPerToken} open sockets per token`);
      return;
    }
    const connection = serveRelayConnection(socket, auth, {
      db: deps.db,
      logger,
      feed,
      limits: settings,
      tokenActive: () => tokens.recheck(auth.tokenId),
    });
    tokens.track(auth.tokenId, socket, connection.recheckAccess);
    logger.debug({ user_id: auth.userId, token_id: auth.tokenId }, 'eval relay connection opened');
  };

  const onUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    if (pathOf(req.url) !== RELAY_PATH) {
      rejectUpgrade(socket, 404, new HttpError(404, 'not_found', 'route not found').toJSON());
      return;
    }
    const workspace = req.headers['x-workspace-id'];
    authenticate(deps.db, credentialsOf(req), typeof workspace === 'string' ? workspace : undefined).then(
      (auth) => wss.handleUpgrade(req, socket, head, (ws) => accept(ws, auth)),
      (error: unknown) => {
        if (!(error instanceof HttpError)) logger.error(logError(error), 'eval relay authentication failed');
        const refusal = error instanceof HttpError ? error : new HttpError(500, 'internal', 'internal error');
        rejectUpgrade(socket, refusal.status, refusal.toJSON());
      },
    );
  };
  server.on('upgrade', onUpgrade);

  // A socket that did not answer the previous ping is gone (half-open TCP, suspended laptop): drop it.
  const ping = setInterval(() => {
    for (const [socket, answered] of alive) {
      if (!answered) {
        socket.terminate();
        continue;
      }
      alive.set(socket, false);
      socket.ping();
    }
  }, settings.pingIntervalMs);
  ping.unref();

  return {
    ready: listener.ready,
    async close() {
      clearInterval(ping);
      tokens.stop();
      server.off('upgrade', onUpgrade);
      await Promise.all(
        [...alive.keys()].map(
          (socket) =>
            new Promise<void>((done) => {
              const force = setTimeout(() => socket.terminate(), 1_000);
              socket.once('close', () => {
                clearTimeout(force);
                done();
              });
              socket.close(1001, 'server shutting down');
            }),
        ),
      );
      wss.close();
      feed.close();
      await listener.close();
    },
  };
}
