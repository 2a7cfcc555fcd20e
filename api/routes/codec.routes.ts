import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { z } from 'zod';
import type { Db } from '../../db/database';
import type { Logger } from '../../lib/logger';
import { HttpError } from '../http-error';
import { requireOperator, type OperatorCaller } from '../operator-auth';
import { parseOr422 } from '../route';

/** The Temporal Web UI's JSON form of payloads, in both directions. */
export const jsonPayloads = z.object({
  payloads: z
    .array(z.object({ metadata: z.record(z.string(), z.string()).nullish(), data: z.string().nullish() }))
    .max(1000),
});
type JsonPayload = z.infer<typeof jsonPayloads>['payloads'][number];

const fromJson = ({ metadata, data }: JsonPayload): Payload => ({
  metadata: metadata
    ? Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')]))
    : undefined,
  data: data ? Buffer.from(data, 'base64') : undefined,
});

const toJson = ({ metadata, data }: Payload): JsonPayload => ({
  metadata: metadata
    ? Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k, Buffer.from(v ?? []).toString('base64')]))
    : null,
  data: data ? Buffer.from(data).toString('base64') : null,
});

/** What the codec routes need. */
export interface CodecRouterOptions {
  db: Db;
  logger: Logger;
  allowedOrigins: readonly string[];
  bodyLimit: string;
  /** Let a request without any token through (the embedded dev UI on a loopback-only api; see requireOperator). */
  tokenless: boolean;
}

/**
 * The Temporal Web UI's remote codec (`/codec/encode`, `/codec/decode`), so operators can read encrypted run
 * payloads in the UI. Off unless TEMPORAL_CODEC_ORIGINS names the UI's origin; only those origins are served, and only
 * to an operator's token, because one key encrypts every workspace's payloads. Each use is logged with who asked and
 * how many payloads, never their content.
 */
export function codecRouter(codec: PayloadCodec | undefined, options: CodecRouterOptions): Router {
  const { allowedOrigins } = options;
  const router = Router();
  if (!codec || allowedOrigins.length === 0) return router;
  const logger = options.logger.child({ component: 'codec' });
  const cors = (req: Request, res: Response, next: NextFunction): void => {
    const origin = req.get('origin');
    if (!origin || !allowedOrigins.includes(origin))
      throw new HttpError(403, 'forbidden', 'origin not allowed to use the codec');
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type, X-Namespace, Authorization');
    res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
    res.setHeader('Vary', 'Origin');
    next();
  };
  // A browser's preflight carries no Authorization header, so it is answered on the origin alone.
  router.options(['/codec/encode', '/codec/decode'], cors, (_req, res) => {
    res.status(204).end();
  });
  const operatorOnly = requireOperator(options.db, { tokenless: options.tokenless });
  for (const direction of ['encode', 'decode'] as const) {
    router.post(
      `/codec/${direction}`,
      cors,
      operatorOnly,
      express.json({ limit: options.bodyLimit }),
      async (req, res) => {
        const { payloads } = parseOr422(jsonPayloads, req.body);
        const caller = res.locals.operator as OperatorCaller;
        const converted = await codec[direction](payloads.map(fromJson)).catch(() => undefined);
        logger.info(
          {
            request_id: req.requestId,
            direction,
            user_id: caller.userId,
            token_id: caller.tokenId,
            payloads: payloads.length,
            outcome: converted ? 'ok' : 'failed',
          },
          caller.tokenId ? 'codec used by an operator' : 'codec used without a token (embedded UI on loopback)',
        );
        if (!converted) throw new HttpError(422, 'codec_failed', `payloads could not be ${direction}d`);
        res.json({ payloads: converted.map(toJson) });
      },
    );
  }
  return router;
}
