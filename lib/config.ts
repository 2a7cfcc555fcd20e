import path from 'node:path';
import { z } from 'zod';
import { LIMITS } from '../domain/limits';

const optionalUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional();
// Digits only: z.coerce would take ' ' as 0 (a random port), '0x50' as 80 and '1e3' as 1000.
const integer = (min: number, max: number) =>
  z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().int().min(min).max(max));
const port = integer(0, 65535);

/** A 32-byte key in base64, as ASSAY_MASTER_KEY and the generated key file hold it. */
export const MASTER_KEY_BASE64 = /^[A-Za-z0-9+/]{43}=$/;

const envSchema = z.object({
  ASSAY_HOST: z.string().min(1).default('127.0.0.1'),
  ASSAY_PORT: port.default(3000),
  ASSAY_PUBLIC_URL: optionalUrl,
  // Where Assay's OAuth Client ID Metadata Document is published, if not at {ASSAY_PUBLIC_URL}/oauth/client-metadata.json.
  ASSAY_OAUTH_CLIENT_METADATA_URL: optionalUrl,
  // The MCP gateway's base URL as clients reach it (the builder's connection snippet); unset, the page's origin.
  ASSAY_GATEWAY_PUBLIC_URL: optionalUrl,
  ASSAY_DATA_DIR: z.string().min(1).default('.data'),
  ASSAY_MASTER_KEY: z.string().regex(MASTER_KEY_BASE64, 'must be 32 bytes, base64-encoded').optional(),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }).optional(),
  PG_PORT: port.default(54329),
  TEMPORAL_ADDRESS: z
    .string()
    .regex(/^[^:\s]+:\d+$/, 'must be host:port')
    .optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('assay'),
  TEMPORAL_PORT: port.default(7233),
  TEMPORAL_UI_PORT: port.default(8233),
  TEMPORAL_UI_URL: optionalUrl,
  VAULT_ADDR: optionalUrl,
  VAULT_TOKEN: z.string().min(1).optional(),
  VAULT_KV_MOUNT: z
    .string()
    .regex(/^[a-z0-9_-]+$/i, 'must be a mount name')
    .default('secret'),
  BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb)$/i, 'must look like 1mb or 512kb')
    .default('1mb'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // How long one flow node (handshake and tool call) may run before the run fails; how often the sweep ends runs
  // whose workflow closed without writing their row (terminated, timed out).
  FLOW_NODE_TIMEOUT_SECONDS: integer(1, 3600).default(180),
  RUN_SWEEP_SECONDS: integer(1, 3600).default(30),
  EGRESS_ALLOWLIST: z.string().default(''),
  TEMPORAL_CODEC_ORIGINS: z
    .string()
    .default('')
    .transform((csv) =>
      csv
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url({ protocol: /^https?$/, error: 'must list http(s) origins' }))),
  MCP_CATALOG_FILE: z.string().min(1).optional(),
  EVAL_CONCURRENCY: integer(1, 256).default(8),
  // History events per eval-run execution before it continues as new; far below Temporal's 51,200-event limit.
  // Postgres connections per process: a worker's scoring lanes, judge-call counts and flushes share them.
  DATABASE_POOL_SIZE: integer(2, 200).default(20),
  EVAL_HISTORY_BUDGET: integer(50, 40_000).default(5_000),
  // At most 60 s: a revoked or expired token must lose its WebSocket connections within a minute.
  WS_TOKEN_RECHECK_MS: integer(100, 60_000).default(20_000),
  WORKSPACE_EVAL_CONCURRENCY: integer(1, 256).default(8),
  // The longest lifetime of a personal token, in days (a token asked without one gets it); `none`: no maximum.
  TOKEN_MAX_DAYS: z.union([z.literal('none'), integer(1, 3650)]).default(90),
  // Who may create a workspace over HTTP: instance operators only, or any user.
  WORKSPACE_CREATION: z.enum(['operators', 'anyone']).default('operators'),
  // Days an audit entry is kept; each worker deletes older ones hourly.
  AUDIT_RETENTION_DAYS: integer(1, 36_500).default(365),
  // The bearer token a Prometheus scrape of /metrics sends (api and worker); unset, /metrics is served on loopback only.
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{16,256}$/, 'must be 16 to 256 printable characters without spaces')
    .optional(),
  // Ports of the worker's own /metrics and of the Temporal SDK's Prometheus exporter (on ASSAY_HOST); unset, off.
  WORKER_METRICS_PORT: port.optional(),
  TEMPORAL_METRICS_PORT: port.optional(),
  // Traces are off unless a collector's OTLP/HTTP base URL is given (spans go to <endpoint>/v1/traces as JSON).
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
  OTEL_SERVICE_NAME: z.string().min(1).max(200).default('assay'),
  // Scheduled MCP health checks failed in a row before a server goes to `error` (it recovers on the next success).
  MCP_HEALTH_FAILURES_TO_ERROR: integer(1, 100).default(3),
  // Scheduled MCP health checks of one workspace in flight on each worker; a check past it is skipped (the next interval
  // tries again), so a workspace's slow or many servers never hold the worker's activity slots other workspaces need.
  WORKSPACE_HEALTH_CHECK_CONCURRENCY: integer(1, 64).default(4),
  // Requests per minute one token, and one workspace (all its tokens), may make to /api of one api process; a bucket
  // of a minute's quota refilled evenly, so a runaway client is shed (429) before it loads the database.
  RATE_LIMIT_TOKEN_PER_MINUTE: integer(1, 10_000_000).default(12_000),
  RATE_LIMIT_WORKSPACE_PER_MINUTE: integer(1, 10_000_000).default(60_000),
  // The MCP gateway (`assay gateway`, in-process under `assay start`): its port on ASSAY_HOST, and its own quotas per
  // token and per workspace (every request to /mcp, per gateway process), as the api's above.
  ASSAY_GATEWAY_PORT: port.default(3100),
  GATEWAY_RATE_LIMIT_TOKEN_PER_MINUTE: integer(1, 10_000_000).default(12_000),
  GATEWAY_RATE_LIMIT_WORKSPACE_PER_MINUTE: integer(1, 10_000_000).default(60_000),
  // A gateway session without a request for this long is closed with its upstream sessions.
  GATEWAY_SESSION_IDLE_SECONDS: integer(5, 86_400).default(600),
  // How often the gateway looks for changed links, allowlists and tools of agents with open sessions (list_changed).
  GATEWAY_LIST_POLL_MS: integer(100, 60_000).default(1_000),
  // Stdio children of one workspace's servers the gateway runs at once: a fair share of `gatewayStdioChildren`.
  GATEWAY_STDIO_CHILDREN_PER_WORKSPACE: integer(1, LIMITS.gatewayStdioChildren).default(4),
});

export type Config = z.infer<typeof envSchema> & { dataDir: string };

/** Raised when an environment variable is invalid; names the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`invalid configuration: ${variable} ${reason}`);
  }
}

/** Reads and validates the whole configuration from an environment. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(String(issue.path[0]), issue.message);
  }
  if (parsed.data.VAULT_ADDR && !parsed.data.VAULT_TOKEN)
    throw new ConfigError('VAULT_TOKEN', 'is required with VAULT_ADDR');
  return { ...parsed.data, dataDir: path.resolve(parsed.data.ASSAY_DATA_DIR) };
}
