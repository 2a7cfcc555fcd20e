import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's one metrics registry: the api and the worker each fill theirs with what they do (HTTP and WebSocket on
 * the api; runs, cases, judge and MCP calls on the worker). `assay start` runs both in one process, so one registry
 * then holds both.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

const registers = [metricsRegistry];
const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> =>
  new Counter({ name, help, labelNames, registers });
const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) =>
  new Histogram<L>({ name, help, labelNames, buckets, registers });

/** Requests by method, route template (never the raw path) and status. */
export const httpRequests = counter(
  'assay_http_requests_total',
  'HTTP requests answered, by method, route template and status.',
  ['method', 'route', 'status'],
);

/** Request latency by method, route template and status. */
export const httpRequestDuration = histogram(
  'assay_http_request_duration_seconds',
  'Time to answer an HTTP request, by method, route template and status.',
  ['method', 'route', 'status'],
  [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
);

/** Requests refused 429 `rate_limited`, by the bucket that was empty (`token` or `workspace`). */
export const httpRateLimited = counter(
  'assay_http_rate_limited_total',
  'API requests refused 429 rate_limited, by the bucket that was empty (token, workspace).',
  ['scope'],
);

/** Eval runs that ended, by final status. */
export const evalRunsEnded = counter(
  'assay_eval_runs_total',
  'Eval runs that ended, by final status (completed, failed, cancelled).',
  ['status'],
);

/** Case results stored, by status. */
export const evalCasesScored = counter(
  'assay_eval_cases_scored_total',
  'Case results stored, by status (passed, failed, error).',
  ['status'],
);

/** Calls to a judge model, by provider and outcome (`ok` or the kind of failure). */
export const judgeCalls = counter(
  'assay_judge_calls_total',
  'Calls to a judge model, by provider and outcome (ok, or the kind of failure).',
  ['provider', 'outcome'],
);

/** Judge call latency by provider. */
export const judgeCallDuration = histogram(
  'assay_judge_call_duration_seconds',
  'Time a judge call took, by provider (failed calls included).',
  ['provider'],
  [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
);

/** Judge tokens by provider and kind (`prompt` or `completion`). */
export const judgeTokens = counter(
  'assay_judge_tokens_total',
  'Tokens the judge calls used, by provider and kind (prompt, completion).',
  ['provider', 'kind'],
);

/** MCP sessions (connection test, tool listing, tool call), by outcome (`ok` or `error`). */
export const mcpCalls = counter(
  'assay_mcp_calls_total',
  'Calls to MCP servers (connection test, tool listing, tool call), by outcome (ok, error).',
  ['outcome'],
);

/** WebSocket connections open on the eval progress relay. */
export const wsConnections = new Gauge({
  name: 'assay_ws_connections',
  help: 'WebSocket connections open on the eval progress relay.',
  registers,
});

/** Tool calls through the MCP gateway, by server name, upstream tool and outcome (`ok`, `tool_error`, `error`, `refused`). */
export const gatewayCalls = counter(
  'assay_gateway_calls_total',
  'Tool calls through the MCP gateway, by server, tool and outcome (ok, tool_error, error, refused).',
  ['server', 'tool', 'outcome'],
);

/** Notifications from an upstream the gateway dropped rather than relay (over a per-session budget), by server name and
 * method. */
export const gatewayNotificationsDropped = counter(
  'assay_gateway_notifications_dropped_total',
  'Upstream notifications the MCP gateway dropped over a per-session budget, by server and method.',
  ['server', 'method'],
);

/** Gateway tool-call latency (upstream call included), by server name and upstream tool. */
export const gatewayCallDuration = histogram(
  'assay_gateway_call_duration_seconds',
  'Time to answer a tool call through the MCP gateway, by server and tool.',
  ['server', 'tool'],
  [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
);
