import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { z } from 'zod';
import { HttpError } from '../http-error';
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

/**
 * The Temporal Web UI's remote codec (`/codec/encode`, `/codec/decode`), so operators can read encrypted run
 * payloads in the UI. Off unless TEMPORAL_CODEC_ORIGINS names the UI's origin; only those origins are served.
 */
export function codecRouter(
  codec: PayloadCodec | undefined,
  allowedOrigins: readonly string[],
  bodyLimit: string,
): Router {
  const router = Router();
  if (!codec || allowedOrigins.length === 0) return router;
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
  router.options(['/codec/encode', '/codec/decode'], cors, (_req, res) => {
    res.status(204).end();
  });
  for (const direction of ['encode', 'decode'] as const) {
    router.post(`/codec/${direction}`, cors, express.json({ limit: bodyLimit }), async (req, res) => {
      const { payloads } = parseOr422(jsonPayloads, req.body);
      const converted = await codec[direction](payloads.map(fromJson)).catch(() => {
        throw new HttpError(422, 'codec_failed', `payloads could not be ${direction}d`);
      });
      res.json({ payloads: converted.map(toJson) });
    });
  }
  return router;
}
