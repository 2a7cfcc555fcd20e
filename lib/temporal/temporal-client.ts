import { Client, Connection } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';

/** A Temporal client and the connection it owns. */
export interface TemporalHandle {
  client: Client;
  close(): Promise<void>;
}

/** Connects a client to `address` with Assay's data converter. */
export async function connectTemporal(
  address: string,
  namespace: string,
  dataConverter: DataConverter,
): Promise<TemporalHandle> {
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace, dataConverter });
  return { client, close: () => connection.close() };
}
