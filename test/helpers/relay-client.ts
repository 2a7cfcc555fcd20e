import assert from 'node:assert/strict';
import type { Express } from 'express';
import WebSocket from 'ws';
import type { AppDeps } from '../../api/app-deps';
import { attachEvalRelay, type EvalRelay, type EvalRelayOptions } from '../../api/ws/eval-relay';
import { listen } from '../../cli/http-server';

/** An api app served on loopback with the eval relay attached, as `startApi` does. */
export interface ServedApi {
  baseUrl: string;
  wsUrl: string;
  relay: EvalRelay;
  close(): Promise<void>;
}

/** Serves `app` on 127.0.0.1 and a free port with its own relay (its own LISTEN connection). */
export async function serveWithRelay(
  app: Express,
  deps: Pick<AppDeps, 'config' | 'db' | 'logger'>,
  options: EvalRelayOptions = {},
): Promise<ServedApi> {
  const http = await listen(app, '127.0.0.1', 0);
  const relay = attachEvalRelay(http.server, deps, options);
  await relay.ready;
  const { port } = http.server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/ws`,
    relay,
    async close() {
      await relay.close();
      await http.close();
    },
  };
}

/** A connected relay client that records every message it receives. */
export interface RelayClient {
  socket: WebSocket;
  messages: any[];
  send(message: unknown): void;
  subscribe(runId: string): void;
  /** Resolves with the first recorded message (from `from` on) that matches, failing the test at the deadline. */
  waitFor(match: (message: any) => boolean, timeoutMs?: number, from?: number): Promise<any>;
  /** Resolves when at least `count` recorded messages match. */
  waitForCount(match: (message: any) => boolean, count: number, timeoutMs?: number): Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

/** How to present the token: an Authorization header (non-browser clients) or the subprotocols a browser offers. */
export type Credentials = { header: string } | { protocolToken: string } | Record<string, never>;

/** Opens a relay socket; rejects with `{ status, body }` when the upgrade is refused. */
export async function openRelay(
  wsUrl: string,
  credentials: Credentials,
  options: WebSocket.ClientOptions = {},
): Promise<RelayClient> {
  const protocols = 'protocolToken' in credentials ? ['assay.v1', `assay.bearer.${credentials.protocolToken}`] : [];
  const headers: Record<string, string> = 'header' in credentials ? { Authorization: credentials.header } : {};
  const socket = new WebSocket(wsUrl, protocols, { ...options, headers });
  const messages: any[] = [];
  const listeners = new Set<() => void>();
  socket.on('message', (data) => {
    messages.push(JSON.parse(data.toString()));
    for (const listener of [...listeners]) listener();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        reject(
          Object.assign(new Error(`upgrade refused: ${res.statusCode}`), {
            status: res.statusCode,
            body: JSON.parse(Buffer.concat(chunks).toString() || 'null'),
          }),
        ),
      );
    });
    socket.once('error', reject);
  });
  const waitUntil = (check: () => boolean, timeoutMs: number, what: string): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (check()) return resolve();
      const timer = setTimeout(() => {
        listeners.delete(listener);
        reject(
          new Error(
            `timed out after ${timeoutMs} ms waiting for ${what}; got ${JSON.stringify(messages.map((m) => m.type))}`,
          ),
        );
      }, timeoutMs);
      const listener = (): void => {
        if (!check()) return;
        clearTimeout(timer);
        listeners.delete(listener);
        resolve();
      };
      listeners.add(listener);
    });
  return {
    socket,
    messages,
    closed,
    send: (message) => socket.send(JSON.stringify(message)),
    subscribe: (runId) => socket.send(JSON.stringify({ type: 'subscribe', run_id: runId })),
    async waitFor(match, timeoutMs = 30_000, from = 0) {
      const find = (): any => messages.slice(from).find(match);
      await waitUntil(() => find() !== undefined, timeoutMs, 'a matching message');
      return find();
    },
    async waitForCount(match, count, timeoutMs = 30_000) {
      await waitUntil(() => messages.filter(match).length >= count, timeoutMs, `${count} matching messages`);
    },
    close: () => socket.close(),
  };
}

/** The HTTP status with which the relay refuses an upgrade (fails the test if it is accepted). */
export async function refusedStatus(wsUrl: string, credentials: Credentials): Promise<{ status: number; body: any }> {
  try {
    const client = await openRelay(wsUrl, credentials);
    client.close();
  } catch (error) {
    const refused = error as { status?: number; body?: unknown };
    if (refused.status !== undefined) return { status: refused.status, body: refused.body };
    throw error;
  }
  return assert.fail('the upgrade was accepted');
}
