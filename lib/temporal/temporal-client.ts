import { Client, Connection } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import { tracingClientInterceptors } from '../telemetry/temporal-tracing';
import type { Tracing } from '../telemetry/tracing';

/** A Temporal client and the connection it owns. */
export interface TemporalHandle {
  client: Client;
  close(): Promise<void>;
}

/** Connects a client to `address` with Assay's data converter; with tracing, workflow starts carry the trace. */
export async function connectTemporal(
  address: string,
  namespace: string,
  dataConverter: DataConverter,
  tracing: Tracing | null = null,
): Promise<TemporalHandle> {
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace, dataConverter, interceptors: tracingClientInterceptors(tracing) });
  return { client, close: () => connection.close() };
}
