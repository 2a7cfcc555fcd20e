import type { Response } from 'express';
import { ErrorCode, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';

/** The first protocol version without JSON-RPC batches: 2025-03-26 allowed them, 2025-06-18 removed them. */
const UNBATCHED_SINCE = '2025-06-18';

/** The JSON-RPC messages a POST body carries, each counted against the rate limits: a batch's elements, else one. */
export function messageCount(body: unknown): number {
  return Array.isArray(body) ? Math.max(body.length, 1) : 1;
}

/** The version the SDK's `Server` answers an `initialize` asking for `requested`: that one if supported, else the latest. */
export function negotiatedVersion(requested: unknown): string {
  const asked = String(requested);
  return SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_PROTOCOL_VERSION;
}

/**
 * Answers a batch sent in a session negotiated at a version without batches as the SDK answers a bad batch (HTTP 400,
 * JSON-RPC Invalid Request), and says whether it did; earlier versions keep their batches (rate-limited per message).
 */
export function refuseBatch(res: Response, body: unknown, version = LATEST_PROTOCOL_VERSION): boolean {
  // Protocol versions are dates: they order as strings.
  if (!Array.isArray(body) || version < UNBATCHED_SINCE) return false;
  const message = `Invalid Request: protocol version ${version} has no JSON-RPC batches; send one message per request`;
  res.status(400).json({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message } });
  return true;
}
