import type { Client } from '@temporalio/client';
import type { Db } from '../../db/database';
import type { Config } from '../../lib/config';
import { createEgressGuard, type EgressGuard } from '../../lib/outbound/egress/egress-guard';
import type { Logger } from '../../lib/logger';
import type { Tracing } from '../../lib/telemetry/tracing';
import type { CredentialVault } from '../../lib/vault/credential-vault';

/** The worker's real connections (never fakes), from which its activities are built. */
export interface WorkerConnections {
  db: Db;
  vault: CredentialVault;
  logger: Logger;
  config: Config;
  /** Null when traces are off (no `OTEL_EXPORTER_OTLP_ENDPOINT`). */
  tracing: Tracing | null;
}

/** What activities are built from: the worker's connections and its one egress guard. */
export interface ActivityDeps extends WorkerConnections {
  /** Every outbound call to a user-supplied address (MCP servers, model providers) goes through this guard. */
  egress: EgressGuard;
  /** This worker's Temporal identity, recorded on what it stores (`case_results.scored_by`). */
  workerIdentity: string;
  /** The worker's Temporal client: activities manage schedules (MCP health checks) with it. */
  temporal: Client;
}

/** Adds the worker's egress guard, built once from `EGRESS_ALLOWLIST`: one connection pool for all activities. */
export function createActivityDeps(
  connections: WorkerConnections,
  workerIdentity: string,
  temporal: Client,
): ActivityDeps {
  return {
    ...connections,
    egress: createEgressGuard({ allowlist: connections.config.EGRESS_ALLOWLIST }),
    workerIdentity,
    temporal,
  };
}
