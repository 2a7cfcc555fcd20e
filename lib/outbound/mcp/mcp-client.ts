import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { linearSchemaValidator } from './output-schema';

/**
 * Every MCP client Assay opens (gateway upstreams, syncs, health checks, flows, runs, the playground) is made here:
 * the SDK checks each tool result against the tool's listed output schema, and this client does it with Assay's own
 * check, linear in the result, rather than Ajv's, which runs a server's patterns on a backtracking engine.
 */
export function createMcpClient(capabilities: ClientCapabilities): Client {
  return new Client({ name: 'assay', version: '0.1.0' }, { capabilities, jsonSchemaValidator: linearSchemaValidator });
}
